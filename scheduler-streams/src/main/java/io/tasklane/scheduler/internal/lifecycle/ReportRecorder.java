package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Feeds the reports and the {@code dead} alert from the transitions of one stream task's records
 * ({@link TaskStore#put} and friends): SUCCEEDED, DEAD and CANCELLED reached, an attempt failed (it
 * ended FAILED, PERMANENT_FAILURE or TIMEOUT), a dispatch (lateness = dispatch time − the later of
 * dueAt and createdAt, as the dispatch lateness metric) and an attempt ended (run time = the
 * attempt's end − its dispatch, as the scheduler records them in the history). Figures are added up
 * in memory per handler and minute and merged into the {@link ReportGrain} stores at most once per
 * {@link #FLUSH_EVERY_MS} by the punctuator, and when the task closes: one read-modify-write per
 * handler, minute and grain, not one per transition. Lives in the stream task's {@link TaskMemory};
 * used on its stream thread only.
 *
 * <p>What a crash costs: the figures not yet merged (at most the last second) are lost with the
 * memory; records processed again after the crash (at_least_once) are mostly refused as stale or
 * duplicates, so they are not counted twice but not recovered either. Under exactly_once_v2 the
 * merged figures commit with the records, and the loss is the same second at most.
 */
final class ReportRecorder {
  static final long FLUSH_EVERY_MS = 1_000;

  /** Attempt outcomes counted as failed: the attempt ran (or was due to) and did not succeed. */
  private static final Set<String> FAILED_OUTCOMES =
      Set.of("FAILED", "PERMANENT_FAILURE", "TIMEOUT");

  private record Key(String handler, long minute) {}

  private final AlertSignals alerts;
  private Map<Key, ReportBucket> pending = new HashMap<>();
  private long flushedAt;
  private long backlogAt;

  ReportRecorder(AlertSignals alerts) {
    this.alerts = alerts;
  }

  /** {@code previous} (null when new) became {@code next}: counts what changed. */
  void moved(String id, TaskRecord previous, TaskRecord next) {
    if (next.task() == null || next.state() == null) {
      return;
    }
    if (previous == null) {
      alerts.admitted(id, next.updatedAt() - next.task().createdAt());
    }
    if (next.waitTimedOutAt() > 0 && (previous == null || previous.waitTimedOutAt() == 0)) {
      alerts.waitTimedOut(next.task().handler(), id, next.task().options().waitTimeoutMsOrNone());
    }
    TaskState was = previous == null ? null : previous.state();
    TaskState now = next.state();
    int prevAttempt = previous == null ? 0 : previous.attempt();
    boolean dispatched = now == TaskState.DISPATCHED && next.attempt() > prevAttempt;
    AttemptEntry ended = previous == null ? null : endedAttempt(previous, next);
    boolean finished = now != was && now.isTerminal();
    if (!dispatched && ended == null && !finished) {
      return;
    }
    String handler = next.task().handler();
    long at = next.updatedAt();
    ReportBucket b =
        pending.computeIfAbsent(
            new Key(handler, ReportGrain.MINUTE.start(at)), k -> new ReportBucket());
    if (dispatched) {
      b.late(at - Math.max(next.dueAt(), next.task().createdAt()));
      alerts.dispatched(handler, id);
    }
    if (ended != null) {
      b.ran(ended.endedAt() - ended.dispatchedAt());
      if (FAILED_OUTCOMES.contains(ended.outcome())) {
        b.failed++;
      }
    }
    if (finished) {
      switch (now) {
        case SUCCEEDED -> b.succeeded++;
        case CANCELLED -> b.cancelled++;
        case DEAD -> {
          b.dead++;
          alerts.dead(handler, id, next.reason());
        }
        default -> {}
      }
    }
  }

  /**
   * Merges the pending figures into the stores when {@link #FLUSH_EVERY_MS} passed since the last
   * merge, or always when {@code force}.
   */
  void flush(long now, boolean force, Map<ReportGrain, WindowStore<String, byte[]>> stores) {
    if (pending.isEmpty() || (!force && now - flushedAt < FLUSH_EVERY_MS)) {
      return;
    }
    flushedAt = now;
    Map<Key, ReportBucket> batch = pending;
    pending = new HashMap<>();
    for (ReportGrain grain : ReportGrain.values()) {
      WindowStore<String, byte[]> store = stores.get(grain);
      Map<Key, ReportBucket> merged = new HashMap<>();
      batch.forEach(
          (k, b) ->
              merged
                  .computeIfAbsent(
                      new Key(k.handler(), grain.start(k.minute())), x -> new ReportBucket())
                  .add(b));
      merged.forEach(
          (k, b) -> {
            byte[] old = store.fetch(k.handler(), k.minute());
            store.put(
                k.handler(),
                (old == null ? b : ReportBucket.decode(old).add(b)).encode(),
                k.minute());
          });
    }
  }

  /**
   * Hands the handlers' queued counts of stream task {@code task} to the backlog rule, at most once
   * per {@link #FLUSH_EVERY_MS}.
   */
  void backlog(Object task, HandlerLoad load, long now) {
    if (now - backlogAt < FLUSH_EVERY_MS) {
      return;
    }
    backlogAt = now;
    Map<String, Integer> queued = new HashMap<>();
    for (String h : load.queuedHandlers()) {
      queued.put(h, load.queued(h));
    }
    alerts.queued(task, queued);
  }

  /** The stream task closed: its queued counts no longer count. */
  void closed(Object task) {
    alerts.queued(task, null);
  }

  /** The report stores of the processor's stream task. */
  static Map<ReportGrain, WindowStore<String, byte[]>> stores(ProcessingContext context) {
    Map<ReportGrain, WindowStore<String, byte[]>> m = new EnumMap<>(ReportGrain.class);
    for (ReportGrain g : ReportGrain.values()) {
      m.put(g, context.getStateStore(g.store));
    }
    return m;
  }

  /** The current attempt of {@code previous} if it was running and has ended in {@code next}. */
  private static AttemptEntry endedAttempt(TaskRecord previous, TaskRecord next) {
    AttemptEntry before = entry(previous.history(), previous.attempt());
    if (before == null || before.endedAt() != 0) {
      return null;
    }
    AttemptEntry after = entry(next.history(), previous.attempt());
    return after != null && after.endedAt() != 0 ? after : null;
  }

  private static AttemptEntry entry(List<AttemptEntry> history, int attempt) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).attempt() == attempt) {
        return history.get(i);
      }
    }
    return null;
  }
}
