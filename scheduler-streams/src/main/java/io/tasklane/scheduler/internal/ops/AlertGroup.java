package io.tasklane.scheduler.internal.ops;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One rule and key of the {@link Alerts} within one group window: its first occurrence, count,
 * occurrences not yet sent and latest summary. Its fields are guarded by itself (stream threads
 * count, the delivery thread takes the summaries and marks posts sent).
 */
public final class AlertGroup {
  final String rule;
  final String key;
  final long windowStart;
  private long lastAt;
  private int count = 1;
  private int unsent;
  private boolean sent;
  private String summary;

  AlertGroup(String rule, String key, long at, String summary) {
    this.rule = rule;
    this.key = key;
    this.windowStart = at;
    this.lastAt = at;
    this.summary = summary;
  }

  synchronized void occurred(long at, String what) {
    count++;
    unsent++;
    lastAt = at;
    summary = what;
  }

  synchronized int takeUnsent() {
    int n = unsent;
    unsent = 0;
    return n;
  }

  /** A post of this group reached the receiver. Delivery thread. */
  synchronized void markSent() {
    sent = true;
  }

  /** The webhook body: {@code kind} first or summary, {@code count} occurrences it covers. */
  synchronized Map<String, Object> payload(String kind, int covered) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rule", rule);
    m.put("key", key);
    m.put("kind", kind);
    m.put("count", covered);
    m.put("windowCount", count);
    m.put("firstAt", windowStart);
    m.put("firstAtIso", Instant.ofEpochMilli(windowStart).toString());
    m.put("lastAt", lastAt);
    m.put("lastAtIso", Instant.ofEpochMilli(lastAt).toString());
    m.put("summary", summary);
    return m;
  }

  /**
   * The group as it stands: its rule and key, first and latest occurrence, occurrence count,
   * whether a post of it reached the receiver and its latest summary.
   */
  public record Snapshot(
      String rule,
      String key,
      long firstAt,
      long lastAt,
      int count,
      boolean sent,
      String summary) {}

  /** The group as it stands now ({@code GET /api/alerts} shows it). */
  synchronized Snapshot snapshot() {
    return new Snapshot(rule, key, windowStart, lastAt, count, sent, summary);
  }

  synchronized String summary() {
    return summary;
  }
}
