package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.SchedulerException;
import io.tasklane.scheduler.TrustStore;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The HTTP client of the reads one instance forwards to another: {@code https} when this instance's
 * API runs TLS ({@code micronaut.server.ssl.enabled}, so every instance does), trusting {@code
 * inter-instance-trust-store} or else the JVM's default truststore, with the JDK's hostname check
 * against the owner's advertised host; {@code http} otherwise, with the inter-instance token
 * ({@link InterInstance}) it presents and {@link TokenFilter} accepts. Made once at start; used on
 * Micronaut's blocking executor; thread-safe.
 */
public final class InterInstanceClient {
  private final String scheme;
  private final HttpClient http;
  private final String token;

  private InterInstanceClient(String scheme, HttpClient http, String token) {
    this.scheme = scheme;
    this.http = http;
    this.token = token;
  }

  /** The client of {@code https} ({@code tls}) or {@code http}, presenting {@code token}. */
  public static InterInstanceClient create(boolean tls, TrustStore trust, String token) {
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
    if (tls && trust != null) {
      b.sslContext(sslContext(trust));
    }
    return new InterInstanceClient(tls ? "https" : "http", b.build(), token);
  }

  /** {@code http} or {@code https}. */
  String scheme() {
    return scheme;
  }

  HttpClient http() {
    return http;
  }

  /** The inter-instance token: sent on every forwarded read, accepted on the forwardable ones. */
  String token() {
    return token;
  }

  private static SSLContext sslContext(TrustStore trust) {
    try (InputStream in = Files.newInputStream(trust.path())) {
      KeyStore ks = KeyStore.getInstance(trust.type());
      ks.load(in, trust.password().toCharArray());
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (Exception e) {
      // the password is never part of the message: only the file and the failure's type
      throw new SchedulerException(
          "tasklane.scheduler.inter-instance-trust-store: cannot load "
              + trust.path()
              + " as "
              + trust.type()
              + " ("
              + e.getClass().getSimpleName()
              + ")",
          e);
    }
  }
}
