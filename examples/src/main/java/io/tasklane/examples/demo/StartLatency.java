package io.tasklane.examples.demo;

import java.io.PrintStream;
import org.HdrHistogram.Histogram;

/**
 * Commit → handler start of the demo's e-mails, over the whole run and split at {@link #COLD_MS}
 * after the first order's commit: the pipeline's first seconds (a cold pipeline: JIT, first
 * fetches) apart from the rest. Filled and printed on the demo's thread.
 */
final class StartLatency {
  /** The orders committed within this long of the first one count as the cold start. */
  static final long COLD_MS = 10_000;

  private final long firstCommitAt;
  private final Histogram whole = histogram();
  private final Histogram first = histogram();
  private final Histogram rest = histogram();

  /**
   * @param firstCommitAt the first order's commit instant (epoch ms)
   */
  StartLatency(long firstCommitAt) {
    this.firstCommitAt = firstCommitAt;
  }

  /** One e-mail: its order's commit and its handler's start (epoch ms). */
  void add(long commitAt, long startedAt) {
    long ms = Math.max(0, startedAt - commitAt);
    whole.recordValue(ms);
    (commitAt - firstCommitAt < COLD_MS ? first : rest).recordValue(ms);
  }

  Histogram whole() {
    return whole;
  }

  Histogram first() {
    return first;
  }

  Histogram rest() {
    return rest;
  }

  /** The summary's lines: the whole run, then the first 10 s and the rest. */
  void print(PrintStream out) {
    out.printf(
        "  commit → handler start (e-mails): p50 %d ms, p99 %d ms, max %d ms (%d tasks)%n",
        whole.getValueAtPercentile(50),
        whole.getValueAtPercentile(99),
        whole.getMaxValue(),
        whole.getTotalCount());
    out.printf(
        "    orders of the first %d s: p50 %d ms, p99 %d ms (%d tasks); after them: p50 %d ms,"
            + " p99 %d ms (%d tasks)%n",
        COLD_MS / 1000,
        first.getValueAtPercentile(50),
        first.getValueAtPercentile(99),
        first.getTotalCount(),
        rest.getValueAtPercentile(50),
        rest.getValueAtPercentile(99),
        rest.getTotalCount());
  }

  private static Histogram histogram() {
    return new Histogram(3_600_000L, 3);
  }
}
