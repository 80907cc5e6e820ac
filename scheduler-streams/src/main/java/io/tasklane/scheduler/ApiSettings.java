package io.tasklane.scheduler;

import com.fasterxml.jackson.core.JsonPointer;
import io.tasklane.core.HandlerNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Settings of the HTTP API beyond its tokens: payload redaction, the audit topic's retention and
 * browser sessions. Part of {@link SchedulerConfig} ({@code tasklane.scheduler.api.*} and {@code
 * tasklane.scheduler.audit-retention}); immutable and validated, a bad value fails naming the key.
 *
 * @param redact per handler, the JSON pointers of payload fields shown as {@code "***"} to every
 *     role ({@code api.redact.<handler>: /card/number,/password}); at most {@link #MAX_POINTERS}
 *     per handler, each a valid JSON pointer of at most 200 characters
 * @param viewerPayloads whether viewer tokens see payloads (with the sensitive fields still
 *     redacted); false: a viewer sees every payload as {@code "***"}
 * @param auditRetention how long the {@code <ns>.audit} topic keeps records (when the scheduler
 *     creates it)
 * @param sessionTtl how long a browser session lasts after sign-in
 * @param maxSessions the most live browser sessions per scheduler instance
 */
public record ApiSettings(
    Map<String, List<String>> redact,
    boolean viewerPayloads,
    Duration auditRetention,
    Duration sessionTtl,
    int maxSessions) {
  public static final int MAX_POINTERS = 100;
  public static final Duration DEFAULT_AUDIT_RETENTION = Duration.ofDays(90);
  public static final Duration DEFAULT_SESSION_TTL = Duration.ofHours(8);
  public static final int DEFAULT_MAX_SESSIONS = 1_000;

  /** Every setting at its default: nothing sensitive named, viewers see no payload. */
  public static final ApiSettings DEFAULT =
      new ApiSettings(Map.of(), false, null, null, DEFAULT_MAX_SESSIONS);

  public ApiSettings {
    Map<String, List<String>> copy = new TreeMap<>();
    (redact == null ? Map.<String, List<String>>of() : redact)
        .forEach(
            (handler, pointers) -> {
              String key = "api.redact." + handler;
              require(
                  key, HandlerNames.isValid(handler), "'" + handler + "' is not a handler name");
              List<String> list = pointers == null ? List.of() : List.copyOf(pointers);
              require(
                  key, list.size() <= MAX_POINTERS, "names more than " + MAX_POINTERS + " fields");
              list.forEach(p -> pointer(key, p));
              copy.put(handler, list);
            });
    redact = Map.copyOf(copy);
    auditRetention = auditRetention == null ? DEFAULT_AUDIT_RETENTION : auditRetention;
    require(
        "audit-retention",
        auditRetention.compareTo(Duration.ofHours(1)) >= 0
            && auditRetention.compareTo(Duration.ofDays(3650)) <= 0,
        auditRetention + " is outside PT1H to PT87600H (10 years)");
    sessionTtl = sessionTtl == null ? DEFAULT_SESSION_TTL : sessionTtl;
    require(
        "api.session-ttl",
        sessionTtl.compareTo(Duration.ofMinutes(1)) >= 0
            && sessionTtl.compareTo(Duration.ofDays(7)) <= 0,
        sessionTtl + " is outside PT1M to PT168H (7 days)");
    require(
        "api.max-sessions",
        maxSessions >= 1 && maxSessions <= 100_000,
        maxSessions + " is outside 1 to 100000");
  }

  /** The compiled pointers of {@code handler}'s sensitive fields (empty when none). */
  public List<JsonPointer> sensitive(String handler) {
    return redact.getOrDefault(handler, List.of()).stream().map(JsonPointer::compile).toList();
  }

  private static void pointer(String key, String p) {
    require(
        key,
        p != null && p.startsWith("/") && p.length() <= 200,
        "'"
            + p
            + "' is not a JSON pointer of 1 to 200 characters starting with / (e.g."
            + " /card/number)");
    try {
      JsonPointer.compile(p);
    } catch (IllegalArgumentException e) {
      require(key, false, "'" + p + "' is not a JSON pointer: " + e.getMessage());
    }
  }

  private static void require(String key, boolean ok, String message) {
    if (!ok) {
      throw new SchedulerException(SchedulerConfig.PREFIX + "." + key + ": " + message);
    }
  }
}
