package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The browser sessions of this scheduler instance (the web console signs in once with a token and
 * then sends a cookie). A session id is 32 random bytes, sent only in the cookie; the map is keyed
 * by its SHA-256, so neither the id nor the token is kept. A session lasts {@code api.session-ttl}
 * from sign-in; at most {@code api.max-sessions} live at once (expired ones are dropped first, then
 * a sign-in is refused). Sessions live in memory: a restart signs everyone out, and another
 * instance does not know them. Thread-safe (synchronized; every operation is a map access).
 */
@Singleton
@Internal
public final class Sessions {
  /** The cookie holding the session id. */
  static final String COOKIE = "tasklane_session";

  /** A signed-in browser: the token's name and role, and the CSRF token its writes must send. */
  record Session(String name, Role role, String csrf, long expiresAt) {}

  /** A sign-in refused because {@code api.max-sessions} sessions are live. */
  static final class Full extends Exception {
    Full(String message) {
      super(message);
    }
  }

  /** The new session's id (for the cookie only) and the session. */
  record Created(String id, Session session) {}

  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> byHash = new HashMap<>();
  private final ApiSettings settings;
  private final Clock clock;

  @jakarta.inject.Inject
  Sessions(SchedulerConfig config) {
    this(config.api(), Clock.systemUTC());
  }

  Sessions(ApiSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
  }

  /** Opens a session for {@code token}. */
  synchronized Created create(ApiToken token) throws Full {
    long now = clock.millis();
    if (byHash.size() >= settings.maxSessions()) {
      byHash.values().removeIf(s -> s.expiresAt() <= now);
    }
    if (byHash.size() >= settings.maxSessions()) {
      throw new Full(
          settings.maxSessions()
              + " browser sessions are live on this instance, the limit"
              + " tasklane.scheduler.api.max-sessions; sign out unused ones or wait for them to"
              + " expire");
    }
    String id = randomId();
    Session s =
        new Session(token.name(), token.role(), randomId(), now + settings.sessionTtl().toMillis());
    byHash.put(hash(id), s);
    return new Created(id, s);
  }

  /** The live session of cookie value {@code id}, or null (unknown, signed out or expired). */
  synchronized Session find(String id) {
    if (id == null || id.length() > 100) {
      return null;
    }
    String h = hash(id);
    Session s = byHash.get(h);
    if (s != null && s.expiresAt() <= clock.millis()) {
      byHash.remove(h);
      return null;
    }
    return s;
  }

  /** Ends the session of cookie value {@code id}; true when there was one. */
  synchronized boolean remove(String id) {
    return id != null && byHash.remove(hash(id)) != null;
  }

  /** Whether {@code given} equals the session's CSRF token (constant-time). */
  static boolean csrfMatches(Session s, String given) {
    return given != null
        && MessageDigest.isEqual(
            s.csrf().getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }

  private String randomId() {
    byte[] b = new byte[32];
    random.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static String hash(String id) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
