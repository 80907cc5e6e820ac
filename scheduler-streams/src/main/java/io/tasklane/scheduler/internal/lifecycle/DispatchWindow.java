package io.tasklane.scheduler.internal.lifecycle;

import java.util.Arrays;

/**
 * How many attempts of one handler one stream task keeps out at once, sized from the handler's own
 * results so that attempts do not wait long in the handler topic behind those sent before them:
 * twice what keeps its workers busy, {@code 2 × rate × (on the way + handler run)}, plus the
 * attempts that ended but whose results are still on their way back ({@code mean rate × way back},
 * once: a scheduler behind its results by seconds must not count its own lag as a queue in the
 * handler topic, nor keep one for it), within {@code max-dispatched} (docs/scheduler-streams.md,
 * flow control). A task released in its turn ({@link LaneTurns}) then starts about one round trip
 * later, not after every attempt a backlog put ahead of it.
 *
 * <p>Measured per interval of {@link #INTERVAL_MS} from each result: the best delivery rate of the
 * last {@link #RATE_INTERVALS} intervals, the least time on the way (dispatch to result, less the
 * handler's run and the way back) of the last {@link #BASE_INTERVALS}, the handler's mean run and
 * the last interval's mean way back (the run's end on the worker to its result read here). A window
 * that holds a standing queue in the handler topic would see that queue in every sample and keep it
 * (its attempts take window ÷ rate on the way, so the window measures itself), so the window
 * probes: when it comes in force and every {@link #PROBE_EVERY_MS} after, it shrinks to what keeps
 * the handler's runs going ({@code rate × run} plus {@link #HEADROOM}, {@link #FLOOR} at least)
 * until an attempt sent after the queue ahead of it drained has come back, {@link #PROBE_MOST_MS}
 * at most: that attempt's time on the way is the way without a queue. Without results for {@link
 * #IDLE_MS} the window is forgotten; in force and not measured it starts at {@link #FLOOR} (a slow
 * start, so that a resumed backlog is not let out whole ahead of the tasks behind it). The window
 * is in force only while tasks wait for their turns or for their priority ({@link #contended}, and
 * {@link #CONTENDED_MS} after): a single first-in, first-out queue has nobody to let ahead, and
 * {@code max-dispatched} keeps its peak throughput. While it is in force each result refills its
 * slot at once ({@link LaneTurns#refill}), so the window needs no reserve for the time between two
 * releases of the queue. In memory only ({@link HandlerLoad}); a reopened stream task measures
 * afresh. Used on the stream task's thread only.
 */
final class DispatchWindow {
  static final long INTERVAL_MS = 250;
  static final int RATE_INTERVALS = 8;
  static final int BASE_INTERVALS = 40;
  static final long PROBE_EVERY_MS = 10_000;
  static final long IDLE_MS = 10_000;

  /** The longest probe: a queue of {@code max-dispatched} attempts drains within it. */
  static final long PROBE_MOST_MS = 5_000;

  /** How long the window stays in force after tasks with a key last waited for their turns. */
  static final long CONTENDED_MS = 10_000;

  /**
   * The smallest window: room for a few attempts of a handler that has just started, and what keeps
   * a quick handler going when the least time on the way is far below the usual one (a window held
   * short by its own measure delivers window ÷ usual way, so a window sized from the least way
   * alone would shrink itself). Every partition keeps its own window: six partitions hold six
   * floors out.
   */
  static final int FLOOR = 16;

  /** Added to the window: results come back in batches, so the count out jitters. */
  static final int HEADROOM = 8;

  static final double GAIN = 2.0;

  private final long[] counts = new long[RATE_INTERVALS];
  private final long[] least = new long[BASE_INTERVALS];
  private long intervalStart = Long.MIN_VALUE;
  private long rolled;
  private long results;
  private long leastNow = Long.MAX_VALUE;
  private long runSum;
  private double runMs = -1;
  private long backSum;
  private double backMs;
  private long lastResultAt;
  private long nextProbeAt;
  private boolean probing;
  private long drainedAt;
  private long probeEndsBy;
  private boolean drainedSeen;
  private int limit = -1;
  private int probeLimit = -1;
  private long contendedAt = Long.MIN_VALUE;
  private boolean contended;

  /**
   * An attempt's result came back at {@code now}: {@code onTheWayMs} after its dispatch less the
   * {@code runMs} its handler ran, with no way back measured apart.
   */
  void returned(long now, long onTheWayMs, long runMs) {
    returned(now, onTheWayMs, runMs, 0);
  }

  /**
   * An attempt's result came back at {@code now}: it took {@code onTheWayMs} from its dispatch to
   * its handler's start, ran {@code runMs} and took {@code backMs} from its end to now.
   */
  void returned(long now, long onTheWayMs, long runMs, long backMs) {
    if (intervalStart == Long.MIN_VALUE
        || now - lastResultAt > IDLE_MS
        || now < intervalStart
        || now - intervalStart > BASE_INTERVALS * INTERVAL_MS) {
      reset(now);
    }
    lastResultAt = now;
    while (now >= intervalStart + INTERVAL_MS) {
      roll(intervalStart + INTERVAL_MS);
    }
    results++;
    leastNow = Math.min(leastNow, Math.max(0, onTheWayMs));
    if (probing
        && now - Math.max(0, onTheWayMs) - Math.max(0, runMs) - Math.max(0, backMs) >= drainedAt) {
      drainedSeen = true; // sent after the queue ahead of it drained
    }
    runSum += Math.max(0, runMs);
    backSum += Math.max(0, backMs);
  }

  /**
   * Tasks with a key (in a lane) wait for their turns at {@code now}: the window is in force from
   * now until {@link #CONTENDED_MS} after the last such call.
   */
  void contended(long now) {
    if (!contended) {
      nextProbeAt = Math.min(nextProbeAt, now); // measure the way without a queue at once
    }
    contendedAt = now;
    contended = true;
  }

  /** Whether the window is in force (tasks with a key waited lately). */
  boolean inForce() {
    return contended;
  }

  /**
   * The most attempts out now, {@code maxDispatched} at most: {@code maxDispatched} itself while no
   * task with a key or a priority waits (a single queue is first in, first out, so a shorter window
   * would only move its wait from the handler topic to the queue). In force but not measured yet
   * (the handler just started, or resumed after {@link #IDLE_MS} without results) it starts at
   * {@link #FLOOR} and grows with each interval's measure (about twice per interval while the
   * handler keeps up), so that a backlog released at once does not put {@code maxDispatched}
   * attempts ahead of the tasks that come after it.
   */
  int limit(int maxDispatched) {
    if (!contended) {
      return maxDispatched;
    }
    int l = probing ? probeLimit : limit;
    return Math.min(l < 0 ? FLOOR : l, maxDispatched);
  }

  private void reset(long now) {
    Arrays.fill(counts, 0);
    Arrays.fill(least, Long.MAX_VALUE);
    intervalStart = now;
    rolled = 0;
    results = 0;
    leastNow = Long.MAX_VALUE;
    runSum = 0;
    runMs = -1;
    backSum = 0;
    backMs = 0;
    limit = -1;
    probing = false;
    nextProbeAt = now + PROBE_EVERY_MS;
  }

  /** Closes the current interval, which ends at {@code end}, and sizes the window. */
  private void roll(long end) {
    counts[(int) (rolled % RATE_INTERVALS)] = results;
    least[(int) (rolled % BASE_INTERVALS)] = leastNow;
    if (results > 0) {
      double mean = runSum / (double) results;
      runMs = runMs < 0 ? mean : 0.75 * runMs + 0.25 * mean;
      backMs = backSum / (double) results; // the way back now, not a floor: it is no queue of ours
    }
    rolled++;
    results = 0;
    leastNow = Long.MAX_VALUE;
    runSum = 0;
    backSum = 0;
    intervalStart = end;
    size(end);
  }

  private void size(long now) {
    boolean wasContended = contended;
    contended = contendedAt != Long.MIN_VALUE && now - contendedAt <= CONTENDED_MS;
    if (!wasContended && contended) {
      nextProbeAt = Math.min(nextProbeAt, now);
    }
    long base = Long.MAX_VALUE;
    for (long l : least) {
      base = Math.min(base, l);
    }
    if (base == Long.MAX_VALUE || runMs < 0) {
      return; // no result measured yet
    }
    long best = 0;
    long sum = 0;
    for (long c : counts) {
      best = Math.max(best, c);
      sum += c;
    }
    double perMs = best / (double) INTERVAL_MS;
    double pipe = perMs * (base + runMs); // attempts out that keep the workers busy
    // attempts ended whose results are still on their way back, at the rate they end now: the best
    // rate would keep a queue of (best - mean) × the way back in the handler topic
    double back = sum / (double) (RATE_INTERVALS * INTERVAL_MS) * backMs;
    limit =
        Math.max(
            FLOOR, (int) Math.min(Integer.MAX_VALUE / 2, Math.ceil(GAIN * pipe + back)) + HEADROOM);
    if (probing && (drainedSeen || now >= probeEndsBy)) {
      probing = false;
      nextProbeAt = now + PROBE_EVERY_MS;
    }
    if (!probing && contended && now >= nextProbeAt) {
      // the attempts sent just before take about the last interval's least time on the way
      long ahead = least[(int) ((rolled - 1) % BASE_INTERVALS)];
      ahead = ahead == Long.MAX_VALUE ? base : ahead;
      probing = true;
      drainedSeen = false;
      drainedAt = now + ahead;
      probeEndsBy =
          now
              + Math.min(PROBE_MOST_MS, Math.max(INTERVAL_MS, 2 * ahead + INTERVAL_MS))
              + (long) Math.ceil(backMs);
      probeLimit =
          Math.max(
              FLOOR,
              (int) Math.min(Integer.MAX_VALUE / 2, Math.ceil(perMs * runMs + back - 1e-6))
                  + HEADROOM);
    }
  }
}
