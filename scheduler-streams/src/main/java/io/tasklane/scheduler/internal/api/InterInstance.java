package io.tasklane.scheduler.internal.api;

import io.micronaut.http.HttpRequest;
import io.tasklane.scheduler.SchedulerConfig;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential of status reads one instance forwards to the instance owning the task: {@code
 * tasklane.scheduler.inter-instance-token}, the same on every instance. The caller's own bearer
 * token is never passed on. Without a configured one each instance generates a random token, so a
 * single instance works as before and several instances answer forwarded reads 502 naming the key.
 */
public final class InterInstance {
  /** The query parameter that marks a forwarded read (accepted with the inter-instance token). */
  static final String FORWARDED = "forwarded";

  /** The actor name of a forwarded read. */
  static final String ACTOR = "inter-instance";

  private static final Logger LOG = LoggerFactory.getLogger(InterInstance.class);

  /**
   * The reads one instance forwards to another: a task or schedule by its owner ({@link
   * OwnerForward}: a task, its logs, a schedule), and the pages and figures every instance adds its
   * part to (task search and counts, schedules, handlers, alerts, relay, reports). Audit, jobs,
   * tokens, workers and every write stay closed to the inter-instance token.
   */
  private static final java.util.regex.Pattern FORWARDABLE =
      java.util.regex.Pattern.compile(
          "/api/(tasks(/[^/]+(/logs)?)?|schedules(/[^/]+)?|handlers(/[^/]+/lanes)?|alerts|relay|reports)");

  private InterInstance() {}

  /** Whether the inter-instance token may read {@code path} (a forwarded read). */
  static boolean forwardable(String path) {
    return FORWARDABLE.matcher(path).matches();
  }

  /**
   * Whether {@code given} is the inter-instance {@code token} on a read marked {@code
   * forwarded=true} of a path instances forward to each other; compared in constant time.
   */
  static boolean forwardedRead(HttpRequest<?> request, String path, byte[] given, byte[] token) {
    return "true".equals(request.getParameters().get(FORWARDED))
        && forwardable(path)
        && MessageDigest.isEqual(given, token);
  }

  /** The configured inter-instance token, else a random one (logged at WARN). */
  public static String token(SchedulerConfig config) {
    if (config.interInstanceToken() != null) {
      return config.interInstanceToken();
    }
    LOG.warn(
        "{}.inter-instance-token is not set: a random one was generated, so status reads of tasks"
            + " owned by another scheduler instance answer 502; give every instance the same"
            + " token (openssl rand -base64 32)",
        SchedulerConfig.PREFIX);
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }
}
