package io.tasklane.scheduler.internal;

import java.time.Duration;

/**
 * The knobs of the topology, taken from {@code SchedulerConfig}.
 *
 * @param punctuationInterval how often the due-index is scanned (wall-clock time)
 * @param scanBound the most index entries one scan handles
 * @param retentionMs how long finished tasks (and early cancels) are kept
 * @param timeoutGraceMs added to a task's timeout to get its attempt's deadline
 * @param snoozeCap the most RETRY_LATER answers before the task goes DEAD
 * @param noHandlerRecheckMs how often a NO_HANDLER task looks for its topic again
 * @param maxDispatched the most attempts of one handler out per stream task; more due tasks queue
 * @param partitions the partition count of {@code tasks} (one stream task each), which picks the
 *     handler partitions of each stream task's dispatches ({@link DispatchPartitioner}); 0 when
 *     unknown: dispatches keep Kafka's default partitioning by task id
 * @param healTimers write back lost timer entries after every (re)start of a stream task: needed
 *     under at-least-once, where a kill -9 can split a flush; under {@code exactly_once_v2} the
 *     stores' changelog writes commit atomically and the pass is skipped
 * @param maxWaitersPerTask the most tasks one task's record keeps as waiters (dependency fan-in);
 *     an {@code await} over it makes its waiter DEAD naming the limit
 */
public record EngineSettings(
    Duration punctuationInterval,
    int scanBound,
    long retentionMs,
    long timeoutGraceMs,
    int snoozeCap,
    long noHandlerRecheckMs,
    int maxDispatched,
    int partitions,
    boolean healTimers,
    int maxWaitersPerTask) {

  /** The default of {@code tasklane.scheduler.max-waiters-per-task}. */
  public static final int DEFAULT_MAX_WAITERS_PER_TASK = 10_000;

  /** Settings with the default waiter cap. */
  public EngineSettings(
      Duration punctuationInterval,
      int scanBound,
      long retentionMs,
      long timeoutGraceMs,
      int snoozeCap,
      long noHandlerRecheckMs,
      int maxDispatched,
      int partitions,
      boolean healTimers) {
    this(
        punctuationInterval,
        scanBound,
        retentionMs,
        timeoutGraceMs,
        snoozeCap,
        noHandlerRecheckMs,
        maxDispatched,
        partitions,
        healTimers,
        DEFAULT_MAX_WAITERS_PER_TASK);
  }
}
