package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.http.HttpRequest;
import jakarta.inject.Singleton;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Limits failed authentications per client address: a bearer token that is not one of {@code
 * api.tokens} (the inter-instance token included) and a sign-in with an unknown token each take one
 * from the address's bucket of {@link #BURST}; one comes back every {@link #REFILL}. An address
 * whose bucket is empty is refused (429 with {@code Retry-After}) before its credentials are
 * checked, so guessing stays slow, while every other address signs in and calls as before. The
 * client address is the connection's peer: behind a proxy it is the proxy's.
 *
 * <p>The map of buckets holds at most {@link #MAX_ADDRESSES} addresses, the least recently seen
 * dropped first, so many distinct addresses cannot grow it without bound. Time comes from a {@link
 * Clock}. Thread-safe (synchronized; every operation is a map access); called on the event loop.
 */
@Singleton
@Internal
public final class AuthFailures {
  /** The failed authentications an address may make at once. */
  static final int BURST = 10;

  /** How long until an address may fail once more. */
  static final Duration REFILL = Duration.ofSeconds(6);

  /** The most addresses remembered; beyond, the least recently seen is forgotten. */
  static final int MAX_ADDRESSES = 10_000;

  /** An address refused: how many whole seconds until it may try again, and whether to audit it. */
  record Block(long retryAfterSeconds, boolean first) {}

  private static final class Bucket {
    double left;
    long at;
    boolean announced;

    Bucket(double left, long at) {
      this.left = left;
      this.at = at;
    }
  }

  private final Clock clock;
  private final int burst;
  private final long refillMillis;
  private final int maxAddresses;
  private final Map<String, Bucket> buckets;

  @jakarta.inject.Inject
  AuthFailures() {
    this(Clock.systemUTC(), BURST, REFILL, MAX_ADDRESSES);
  }

  AuthFailures(Clock clock, int burst, Duration refill, int maxAddresses) {
    this.clock = clock;
    this.burst = burst;
    this.refillMillis = refill.toMillis();
    this.maxAddresses = maxAddresses;
    this.buckets =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > AuthFailures.this.maxAddresses;
          }
        };
  }

  /** The client address of {@code request}: its connection's peer, without the port. */
  static String client(HttpRequest<?> request) {
    InetSocketAddress a = request.getRemoteAddress();
    if (a == null) {
      return "unknown";
    }
    return a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
  }

  /**
   * Null when {@code client} may present a credential now; else how long it must wait, {@code
   * first} on the first refusal since its bucket ran empty (audit that one, not every retry).
   */
  synchronized Block blocked(String client) {
    Bucket b = buckets.get(client);
    if (b == null) {
      return null;
    }
    refill(b);
    if (b.left >= burst) {
      buckets.remove(client); // full again: nothing left to remember
      return null;
    }
    if (b.left >= 1) {
      b.announced = false;
      return null;
    }
    long waitMillis = Math.round((1 - b.left) * refillMillis);
    boolean first = !b.announced;
    b.announced = true;
    return new Block(Math.max(1, (waitMillis + 999) / 1000), first);
  }

  /** Counts a failed authentication of {@code client}. */
  synchronized void failed(String client) {
    Bucket b = buckets.get(client);
    if (b == null) {
      b = new Bucket(burst, clock.millis());
      buckets.put(client, b);
    } else {
      refill(b);
    }
    b.left = Math.max(0, b.left - 1);
  }

  /** How many addresses are remembered (at most {@link #MAX_ADDRESSES}). */
  synchronized int size() {
    return buckets.size();
  }

  private void refill(Bucket b) {
    long now = clock.millis();
    if (now > b.at) {
      b.left = Math.min(burst, b.left + (double) (now - b.at) / refillMillis);
    }
    b.at = Math.max(b.at, now);
  }
}
