package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.internal.ops.AuditEntry;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/audit}: the newest audit records, newest first.
 *
 * @param entries the records (schema {@code AuditEntry} in {@code openapi.yml})
 */
public record AuditResponse(List<Entry> entries) {
  /** The answer of {@code entries}. */
  static AuditResponse of(List<AuditEntry> entries) {
    return new AuditResponse(entries.stream().map(Entry::of).toList());
  }

  /**
   * One audit record as the API shows it.
   *
   * @param at epoch millis of the action
   * @param atIso the same instant in ISO-8601 UTC
   * @param actor the token's name, or {@code anonymous}
   * @param action what was asked
   * @param target what it acted on
   * @param outcome {@code accepted}, {@code refused}, {@code forbidden} or {@code failed}
   * @param detail why, or the routing key; null when none
   */
  public record Entry(
      long at,
      String atIso,
      String actor,
      String action,
      String target,
      String outcome,
      String detail) {
    static Entry of(AuditEntry e) {
      return new Entry(
          e.at(),
          Instant.ofEpochMilli(e.at()).toString(),
          e.actor(),
          e.action(),
          e.target(),
          e.outcome(),
          e.detail());
    }
  }
}
