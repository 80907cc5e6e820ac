package io.tasklane.bench.internal;

import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;

/**
 * A paced load of tasks, one per transaction through the outbox, and each task's commit → handler
 * start (the {@code startedAt} of its SUCCEEDED result, {@link Tap}): the measure of the lanes
 * scenario's fairness and of the priorities scenario. Runs on the bench thread; the load runs on
 * its own threads.
 */
final class StartLatency {
  private static final int THREADS = 4;

  /**
   * One measured load.
   *
   * @param starts commit → handler start in ms of each task offered (a task that did not start in
   *     time counts until the end of the wait)
   * @param startedWhenOffered the load's tasks started when the load had all been offered
   * @param succeededWhenOffered {@link Tap#succeeded()} then (every handler's tasks)
   * @param offeredAtMs when the load had all been offered (epoch ms)
   * @param roundTripMeanMs how long the handler's attempts (every task's) were out on average while
   *     the load was offered, dispatch → result; -1: no figure
   * @param onTheWayMeanMs how much of that was spent on the way rather than in the handler; -1: no
   *     figure
   * @param toDispatch commit → the scheduler's first dispatch (the relay and the scheduler) of each
   *     task seen dispatched; empty without a {@link DispatchTap}
   * @param dispatchToStart the first dispatch → handler start (the handler topic and the worker) of
   *     each task seen dispatched and started; empty without a {@link DispatchTap}
   * @param toRelayed commit → its record on {@code <ns>.tasks} (the relay) of each task seen there;
   *     empty without a tap on that topic
   * @param relayedToDispatch its record on {@code <ns>.tasks} → the first dispatch (the scheduler)
   *     of each task seen in both; empty without both taps
   */
  record Phase(
      Histogram starts,
      long startedWhenOffered,
      long succeededWhenOffered,
      long offeredAtMs,
      long roundTripMeanMs,
      long onTheWayMeanMs,
      Histogram toDispatch,
      Histogram dispatchToStart,
      Histogram toRelayed,
      Histogram relayedToDispatch) {}

  private StartLatency() {}

  /**
   * Offers {@code task.apply(i)} at {@code rate} tasks/s for {@code seconds}, then waits up to
   * {@code waitForStarts} for them to start.
   */
  static Phase measure(
      BenchRun run,
      String label,
      int rate,
      int seconds,
      LongFunction<TaskRequest> task,
      JavaProcess worker,
      Duration waitForStarts)
      throws Exception {
    return measure(run, label, rate, seconds, task, worker, waitForStarts, null, null);
  }

  /**
   * As {@link #measure(BenchRun, String, int, int, LongFunction, JavaProcess, Duration)}, and with
   * {@code dispatches} (null: none) splits each task's way at its first dispatch, and with {@code
   * relayed} (a tap on {@code <ns>.tasks}; null: none) the way before it at the relay's record.
   */
  static Phase measure(
      BenchRun run,
      String label,
      int rate,
      int seconds,
      LongFunction<TaskRequest> task,
      JavaProcess worker,
      Duration waitForStarts,
      DispatchTap dispatches,
      DispatchTap relayed)
      throws Exception {
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    double[] attemptsBefore = Probes.attemptTotals(run.schedulerPort);
    Map<String, Long> commits =
        offer(
            run,
            label,
            e,
            seconds,
            () -> e.pacedRequests(rate, seconds, THREADS, task),
            () -> HandlerAdmin.dead(worker));
    long startedWhenOffered = started(run, commits);
    long succeededWhenOffered = run.tap.succeeded();
    long offeredAt = System.currentTimeMillis();
    long[] means = Probes.attemptMeansMs(attemptsBefore, Probes.attemptTotals(run.schedulerPort));
    run.out.printf(
        "  %s: attempts out %d ms on average, %d ms of it on the way%n", label, means[0], means[1]);
    awaitStarts(
        run,
        label + ": waiting for its tasks",
        commits,
        () -> HandlerAdmin.dead(worker),
        waitForStarts);
    Histogram h = Results.histogram();
    Histogram toDispatch = Results.histogram();
    Histogram dispatchToStart = Results.histogram();
    Histogram toRelayed = Results.histogram();
    Histogram relayedToDispatch = Results.histogram();
    long now = System.currentTimeMillis();
    commits.forEach(
        (id, c) -> {
          Long s = run.tap.startOf(id);
          h.recordValue(Math.max(0, (s == null ? now : s) - c));
          Long d = dispatches == null ? null : dispatches.sentAt(id);
          if (d != null) {
            toDispatch.recordValue(Math.max(0, d - c));
            if (s != null) {
              dispatchToStart.recordValue(Math.max(0, s - d));
            }
          }
          Long r = relayed == null ? null : relayed.sentAt(id);
          if (r != null) {
            toRelayed.recordValue(Math.max(0, r - c));
            if (d != null) {
              relayedToDispatch.recordValue(Math.max(0, d - r));
            }
          }
        });
    return new Phase(
        h,
        startedWhenOffered,
        succeededWhenOffered,
        offeredAt,
        means[0],
        means[1],
        toDispatch,
        dispatchToStart,
        toRelayed,
        relayedToDispatch);
  }

  /**
   * Runs {@code load} (a paced load through {@code e}, run for {@code seconds}) on its own thread
   * and shows its progress until it has offered everything or {@code stop} says so; the commit
   * times of its tasks.
   */
  static Map<String, Long> offer(
      BenchRun run,
      String label,
      Enqueuer e,
      int seconds,
      Scenarios.Body load,
      BooleanSupplier stop)
      throws InterruptedException {
    Thread t = Scenarios.background(load);
    run.progress(
        label,
        () -> e.enqueued() + " committed, " + started(run, e.commits()) + " started",
        () -> !t.isAlive() || stop.getAsBoolean(),
        Duration.ofSeconds(seconds * 3L + 30));
    return Map.copyOf(e.commits());
  }

  /**
   * Waits up to {@code wait} until every task of {@code commits} started or {@code stop} says so.
   */
  static void awaitStarts(
      BenchRun run, String label, Map<String, Long> commits, BooleanSupplier stop, Duration wait)
      throws InterruptedException {
    run.progress(
        label,
        () -> started(run, commits) + "/" + commits.size() + " started",
        () -> started(run, commits) >= commits.size() || stop.getAsBoolean(),
        wait);
  }

  /** Of the tasks {@code ids}, those started. */
  static long started(BenchRun run, Map<String, Long> ids) {
    return ids.keySet().stream().filter(id -> run.tap.startOf(id) != null).count();
  }
}
