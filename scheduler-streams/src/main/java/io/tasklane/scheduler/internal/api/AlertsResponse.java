package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.internal.ops.AlertGroup;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/alerts}: the recent alert groups of every instance, newest (latest occurrence)
 * first. A forwarded read answers this instance's groups alone, in the same form.
 *
 * @param alerts the groups
 * @param partial whether an instance did not answer (its groups are missing)
 * @param missing the instances that did not answer, {@code host:port}
 */
public record AlertsResponse(List<Alert> alerts, boolean partial, List<String> missing) {

  /**
   * One rule and key within one group window.
   *
   * @param rule the alert rule ({@code dead}, {@code stuck}, ...)
   * @param key what it is about (a handler, a task)
   * @param firstAt the first occurrence, epoch millis
   * @param firstAtIso the same in ISO-8601 UTC
   * @param lastAt the latest occurrence, epoch millis
   * @param lastAtIso the same in ISO-8601 UTC
   * @param count the occurrences in the window
   * @param sent whether a post of the group reached the webhook's receiver
   * @param summary the latest occurrence's summary
   * @param instance the instance that counted them, {@code host:port}
   */
  public record Alert(
      String rule,
      String key,
      long firstAt,
      String firstAtIso,
      long lastAt,
      String lastAtIso,
      int count,
      boolean sent,
      String summary,
      String instance) {
    static Alert of(AlertGroup.Snapshot g, String instance) {
      return new Alert(
          g.rule(),
          g.key(),
          g.firstAt(),
          Instant.ofEpochMilli(g.firstAt()).toString(),
          g.lastAt(),
          Instant.ofEpochMilli(g.lastAt()).toString(),
          g.count(),
          g.sent(),
          g.summary(),
          instance);
    }
  }
}
