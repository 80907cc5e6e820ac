package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.internal.lifecycle.ReportBucket;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/reports}: a handler's outcomes, run times and lateness per time bucket (schema
 * {@code Report} in {@code openapi.yml}).
 *
 * @param handler the handler, null for every handler
 * @param bucket {@code minute}, {@code hour} or {@code day}
 * @param since the first instant asked
 * @param sinceIso the same in ISO-8601 UTC
 * @param until the last instant asked
 * @param untilIso the same in ISO-8601 UTC
 * @param points one per bucket with figures, oldest first
 * @param partial whether an instance did not answer (its figures are missing)
 * @param missing the instances that did not answer, {@code host:port}
 */
public record ReportResponse(
    String handler,
    String bucket,
    long since,
    String sinceIso,
    long until,
    String untilIso,
    List<Point> points,
    boolean partial,
    List<String> missing) {

  /**
   * The figures of one bucket.
   *
   * @param start the bucket's first instant
   * @param startIso the same in ISO-8601 UTC
   * @param succeeded tasks that succeeded
   * @param failed attempts that failed
   * @param dead tasks that went DEAD
   * @param cancelled tasks cancelled
   * @param runTimeMs the attempts' run times
   * @param latenessMs how late the dispatches were
   */
  public record Point(
      long start,
      String startIso,
      long succeeded,
      long failed,
      long dead,
      long cancelled,
      Percentiles runTimeMs,
      Percentiles latenessMs) {
    static Point of(long start, ReportBucket b) {
      return new Point(
          start,
          Instant.ofEpochMilli(start).toString(),
          b.succeeded,
          b.failed,
          b.dead,
          b.cancelled,
          Percentiles.of(b.runTimeMs()),
          Percentiles.of(b.latenessMs()));
    }
  }

  /**
   * Percentiles in milliseconds, each null when nothing was measured.
   *
   * @param p50 the median
   * @param p99 the 99th percentile
   * @param max the largest
   */
  public record Percentiles(Long p50, Long p99, Long max) {
    static Percentiles of(long[] figures) {
      return figures == null
          ? new Percentiles(null, null, null)
          : new Percentiles(figures[0], figures[1], figures[2]);
    }
  }
}
