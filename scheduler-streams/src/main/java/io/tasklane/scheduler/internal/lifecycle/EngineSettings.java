package io.tasklane.scheduler.internal.lifecycle;

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
 *     handler partitions of each stream task's dispatches ({@code DispatchPartitioner}); 0 when
 *     unknown: dispatches keep Kafka's default partitioning by task id
 * @param healTimers write back lost timer entries after every (re)start of a stream task: needed
 *     under at-least-once, where a kill -9 can split a flush; under {@code exactly_once_v2} the
 *     stores' changelog writes commit atomically and the pass is skipped
 * @param maxWaitersPerTask the most tasks one task's record keeps as waiters (dependency fan-in);
 *     an {@code await} over it makes its waiter DEAD naming the limit
 * @param logLinesPerTask the most handler log lines kept per task ({@code LogProcessor})
 * @param logBytesPerTask the most bytes of log messages kept per task
 * @param scheduleLeadMs how long before its instant a fire of an {@code overlap: ALLOW} schedule is
 *     made ({@code ScheduleStore#timerAt}); 0 in a builder that does not set it
 * @param adaptiveWindow size each handler's window of attempts out from its results ({@link
 *     DispatchWindow}) instead of keeping {@code maxDispatched}; true in a builder that does not
 *     set it
 * @param priorityAgingMs the most a queued task of priority 0 is held back by tasks of priority 9
 *     beyond its turn in arrival order ({@link QueueRank}); 5 minutes in a builder that does not
 *     set it
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
    int maxWaitersPerTask,
    int logLinesPerTask,
    int logBytesPerTask,
    long scheduleLeadMs,
    boolean adaptiveWindow,
    long priorityAgingMs) {

  /** The default of {@code tasklane.scheduler.max-waiters-per-task}. */
  public static final int DEFAULT_MAX_WAITERS_PER_TASK = 10_000;

  /** A builder: no timer healing, unknown partitions and the default waiter cap until set. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link EngineSettings} knob by knob. Not thread-safe; use it on one thread. */
  public static final class Builder {
    private Duration punctuationInterval;
    private int scanBound;
    private long retentionMs;
    private long timeoutGraceMs;
    private int snoozeCap;
    private long noHandlerRecheckMs;
    private int maxDispatched;
    private int partitions;
    private boolean adaptiveWindow = true;
    private boolean healTimers;
    private int maxWaitersPerTask = DEFAULT_MAX_WAITERS_PER_TASK;
    private int logLinesPerTask = 200;
    private int logBytesPerTask = 64 * 1024;
    private long scheduleLeadMs;
    private long priorityAgingMs = Duration.ofMinutes(5).toMillis();

    private Builder() {}

    /** Sets how often the due-index is scanned. */
    public Builder punctuationInterval(Duration punctuationInterval) {
      this.punctuationInterval = punctuationInterval;
      return this;
    }

    /** Sets the most index entries one scan handles. */
    public Builder scanBound(int scanBound) {
      this.scanBound = scanBound;
      return this;
    }

    /** Sets how long finished tasks are kept, in milliseconds. */
    public Builder retentionMs(long retentionMs) {
      this.retentionMs = retentionMs;
      return this;
    }

    /** Sets the grace added to a task's timeout, in milliseconds. */
    public Builder timeoutGraceMs(long timeoutGraceMs) {
      this.timeoutGraceMs = timeoutGraceMs;
      return this;
    }

    /** Sets the most RETRY_LATER answers before the task goes DEAD. */
    public Builder snoozeCap(int snoozeCap) {
      this.snoozeCap = snoozeCap;
      return this;
    }

    /** Sets how often a NO_HANDLER task looks for its topic again, in milliseconds. */
    public Builder noHandlerRecheckMs(long noHandlerRecheckMs) {
      this.noHandlerRecheckMs = noHandlerRecheckMs;
      return this;
    }

    /** Sets the most attempts of one handler out per stream task. */
    public Builder maxDispatched(int maxDispatched) {
      this.maxDispatched = maxDispatched;
      return this;
    }

    /** Sets whether each handler's window of attempts out is sized from its results. */
    public Builder adaptiveWindow(boolean adaptiveWindow) {
      this.adaptiveWindow = adaptiveWindow;
      return this;
    }

    /** Sets how long a task of priority 0 may be held back, in milliseconds. */
    public Builder priorityAgingMs(long priorityAgingMs) {
      this.priorityAgingMs = priorityAgingMs;
      return this;
    }

    /** Sets the partition count of {@code tasks}; 0 when unknown. */
    public Builder partitions(int partitions) {
      this.partitions = partitions;
      return this;
    }

    /** Sets whether lost timer entries are written back after a (re)start. */
    public Builder healTimers(boolean healTimers) {
      this.healTimers = healTimers;
      return this;
    }

    /** Sets the most tasks one task's record keeps as waiters. */
    public Builder maxWaitersPerTask(int maxWaitersPerTask) {
      this.maxWaitersPerTask = maxWaitersPerTask;
      return this;
    }

    /** Sets the most handler log lines kept per task. */
    public Builder logLinesPerTask(int logLinesPerTask) {
      this.logLinesPerTask = logLinesPerTask;
      return this;
    }

    /** Sets the most bytes of log messages kept per task. */
    public Builder logBytesPerTask(int logBytesPerTask) {
      this.logBytesPerTask = logBytesPerTask;
      return this;
    }

    /** Sets how long before its instant an {@code ALLOW} schedule's fire is made. */
    public Builder scheduleLead(Duration lead) {
      this.scheduleLeadMs = lead.toMillis();
      return this;
    }

    /** The settings. */
    public EngineSettings build() {
      return new EngineSettings(
          punctuationInterval,
          scanBound,
          retentionMs,
          timeoutGraceMs,
          snoozeCap,
          noHandlerRecheckMs,
          maxDispatched,
          partitions,
          healTimers,
          maxWaitersPerTask,
          logLinesPerTask,
          logBytesPerTask,
          scheduleLeadMs,
          adaptiveWindow,
          priorityAgingMs);
    }
  }
}
