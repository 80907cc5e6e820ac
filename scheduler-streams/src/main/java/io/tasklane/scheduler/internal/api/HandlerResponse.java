package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.TaskState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/handlers/{name}} and each entry of {@code GET /api/handlers}: a handler's
 * settings, workers and figures (schema {@code Handler} in {@code openapi.yml}). The figures
 * ({@code counts}, {@code backlog}, {@code recent}) are absent while this instance cannot read
 * them.
 *
 * @param name the handler
 * @param paused whether an operator paused it
 * @param concurrency the set concurrency, else the largest a live worker reports, else null
 * @param concurrencySet the concurrency an operator set, null when none
 * @param maxPerKey the most tasks of one concurrency key that run at once, null when unlimited
 * @param onDead what a DEAD task does to its ordered lane: {@code BLOCK} or {@code SKIP}
 * @param workers the live workers consuming it, by id
 * @param inFlight its tasks running now on those workers
 * @param lag its consumer group's lag, null when unknown
 * @param updatedAt when its setting last changed, null when never
 * @param updatedAtIso the same in ISO-8601 UTC
 * @param updatedBy who changed it last
 * @param counts tasks by state, every instance (exact)
 * @param backlog tasks due and held in its flow-control queues
 * @param recent outcomes in the current minute and the four before it
 * @param partial whether an instance did not answer (its figures are missing)
 */
public record HandlerResponse(
    String name,
    boolean paused,
    Integer concurrency,
    Integer concurrencySet,
    Integer maxPerKey,
    String onDead,
    List<String> workers,
    int inFlight,
    Long lag,
    Long updatedAt,
    String updatedAtIso,
    String updatedBy,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> counts,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long backlog,
    @JsonInclude(JsonInclude.Include.NON_NULL) Recent recent,
    boolean partial) {

  /** When {@code millis} is set (above 0), it; else null. */
  static Long time(long millis) {
    return millis > 0 ? millis : null;
  }

  /** ISO-8601 UTC of {@code millis} when set (above 0), else null. */
  static String iso(long millis) {
    return millis > 0 ? Instant.ofEpochMilli(millis).toString() : null;
  }

  /** Every state's count of {@code f}, 0 for a state without tasks. */
  static Map<String, Long> counts(HandlerStats.Figures f) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (TaskState s : TaskState.values()) {
      counts.put(s.name(), f.counts.getOrDefault(s, 0L));
    }
    return counts;
  }

  /**
   * A handler's outcomes since {@code since} (the current minute and the four before it).
   *
   * @param since the first instant counted
   * @param sinceIso the same in ISO-8601 UTC
   * @param succeeded tasks that succeeded
   * @param failed attempts that failed
   * @param dead tasks that went DEAD
   * @param cancelled tasks cancelled
   * @param succeededPerMin succeeded per minute, two decimals
   * @param failedPerMin failed per minute, two decimals
   * @param runTimeMs the attempts' run times
   * @param latenessMs how late the dispatches were
   */
  public record Recent(
      long since,
      String sinceIso,
      long succeeded,
      long failed,
      long dead,
      long cancelled,
      double succeededPerMin,
      double failedPerMin,
      ReportResponse.Percentiles runTimeMs,
      ReportResponse.Percentiles latenessMs) {
    static Recent of(HandlerStats.Figures f, long since, long now) {
      double minutes = Math.max(1, now - since) / 60_000.0;
      return new Recent(
          since,
          Instant.ofEpochMilli(since).toString(),
          f.recent.succeeded,
          f.recent.failed,
          f.recent.dead,
          f.recent.cancelled,
          rate(f.recent.succeeded, minutes),
          rate(f.recent.failed, minutes),
          ReportResponse.Percentiles.of(f.recent.runTimeMs()),
          ReportResponse.Percentiles.of(f.recent.latenessMs()));
    }

    private static double rate(long n, double minutes) {
      return Math.round(n / minutes * 100) / 100.0;
    }
  }
}
