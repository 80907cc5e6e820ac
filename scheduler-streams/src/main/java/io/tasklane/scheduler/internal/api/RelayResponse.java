package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.internal.ops.RelayWatch;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/relay}: the relay as the schedulers see it, every instance taken together: the
 * last new task admitted and the admission lag (outbox insert to admission) of the tasks admitted
 * in the last 30 to 60 seconds.
 *
 * @param status {@code flowing} when a task was admitted in the last minute, {@code idle} when none
 *     was since, {@code unknown} when none was since the instances started
 * @param lastAdmittedAt when the last new task was admitted, -1 when unknown
 * @param lastAdmittedAtIso the same in ISO-8601 UTC, null when unknown
 * @param lastLagMs that task's admission lag, -1 when unknown
 * @param recent the admissions of the last 30 to 60 seconds
 * @param partial whether an instance did not answer (its figures are missing)
 * @param missing the instances that did not answer, {@code host:port}
 */
public record RelayResponse(
    String status,
    long lastAdmittedAt,
    String lastAdmittedAtIso,
    long lastLagMs,
    Recent recent,
    boolean partial,
    List<String> missing) {

  /** The answer at {@code now} for {@code f}, with {@code missing} instances. */
  static RelayResponse of(RelayWatch.Figures f, List<String> missing, long now) {
    long last = f.lastAdmittedAt();
    String status =
        last < 0 ? "unknown" : now - last <= RelayController.IDLE_AFTER_MS ? "flowing" : "idle";
    return new RelayResponse(
        status,
        last,
        last < 0 ? null : Instant.ofEpochMilli(last).toString(),
        f.lastLagMs(),
        Recent.of(f),
        !missing.isEmpty(),
        List.copyOf(missing));
  }

  /**
   * The admissions of the last 30 to 60 seconds.
   *
   * @param since the first instant counted
   * @param sinceIso the same in ISO-8601 UTC
   * @param tasks the tasks admitted
   * @param lagP50Ms their median admission lag, null when none
   * @param lagP99Ms their 99th percentile admission lag, null when none
   * @param lagMaxMs their largest admission lag, null when none
   */
  public record Recent(
      long since, String sinceIso, long tasks, Long lagP50Ms, Long lagP99Ms, Long lagMaxMs) {
    static Recent of(RelayWatch.Figures f) {
      long n = f.lags().getTotalCount();
      boolean any = n > 0;
      return new Recent(
          f.sinceMs(),
          Instant.ofEpochMilli(f.sinceMs()).toString(),
          n,
          any ? f.lags().getValueAtPercentile(50) : null,
          any ? f.lags().getValueAtPercentile(99) : null,
          any ? f.lags().getMaxValue() : null);
    }
  }
}
