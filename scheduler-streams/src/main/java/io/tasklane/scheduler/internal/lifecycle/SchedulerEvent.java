package io.tasklane.scheduler.internal.lifecycle;

/**
 * The events the scheduler counts, each exported as {@code tasklane.scheduler.events} with the tag
 * {@code event} = {@link #tag()}. The tags are what dashboards and alert rules select on.
 */
public enum SchedulerEvent {
  /** A new task was stored (PENDING, WAITING or dispatched at once). */
  ADMITTED("admitted"),
  /**
   * A schedule fire's task admitted in the partition that made it, without a trip through {@code
   * tasks} (also counted {@link #ADMITTED}).
   */
  ADMITTED_HERE("admitted.here"),
  /** A record reused a stored task's id; it was dropped (the first record of an id wins). */
  DUPLICATE("duplicate"),
  /** A dropped duplicate whose content differed from the stored task's. */
  DUPLICATE_CONFLICT("duplicate-conflict"),
  /** A task arrived after its cancel; it stays CANCELLED. */
  CANCELLED_BEFORE_ARRIVAL("cancelled-before-arrival"),
  /** A record on {@code tasks} that did not decode or failed validation. */
  INVALID_TASKS("invalid.tasks"),
  /** A record on {@code results} that did not decode. */
  INVALID_RESULTS("invalid.results"),
  /** A record on {@code control} that did not decode. */
  INVALID_CONTROL("invalid.control"),
  /** A record on {@code logs} that is no log line; skipped. */
  INVALID_LOGS("invalid.logs"),
  /** A record on {@code tasks} keyed other than its routing key. */
  WRONG_KEY_TASKS("wrong-key.tasks"),
  /** A record on {@code results} keyed other than its task's routing key. */
  WRONG_KEY_RESULTS("wrong-key.results"),
  /** A record on {@code control} keyed other than it must be. */
  WRONG_KEY_CONTROL("wrong-key.control"),
  /** A record on {@code tasks} whose handling threw. */
  ERROR_TASKS("error.tasks"),
  /** A record on {@code results} whose handling threw. */
  ERROR_RESULTS("error.results"),
  /** A record on {@code control} whose handling threw. */
  ERROR_CONTROL("error.control"),
  /** A timer (or queue entry) whose firing threw; its task went DEAD. */
  ERROR_TIMER("error.timer"),
  /** A result for a task id that is not stored. */
  RESULT_UNKNOWN("result.unknown"),
  /** A result for another attempt, or for a task not waiting for one. */
  RESULT_FENCED("result.fenced"),
  /** A result for a cancelled task: written into its history only. */
  RESULT_AFTER_CANCEL("result.after-cancel"),
  /**
   * A result for the current attempt whose dispatch nonce or handler is not that attempt's: written
   * to the scheduler DLT as {@code result-mismatch}, the task untouched.
   */
  RESULT_MISMATCH("result.mismatch"),
  /** A task SUCCEEDED. */
  SUCCEEDED("succeeded"),
  /** A due task whose handler topic does not exist went NO_HANDLER. */
  NO_HANDLER("no-handler"),
  /** A due task joined its handler's queue. */
  QUEUED("queued"),
  /**
   * A due task of a priority above the default went out beyond its handler's window instead of
   * heading its queue ({@code FlowControlQueues#mayPass}).
   */
  PRIORITY_PASSED("priority.passed"),
  /** A due task of a lane joined it to wait for its turn ({@code Lanes}). */
  LANE_WAIT("lane.wait"),
  /** A due task of a rate limit asked the limit's owner for a start slot ({@code RateGate}). */
  RATE_ASKED("rate.asked"),
  /** The owner of a rate limit granted a start slot ({@code RateOwner}). */
  RATE_GRANTED("rate.granted"),
  /** The owner of a rate limit had no slot within its horizon: the task asks again later. */
  RATE_LATER("rate.later"),
  /** A slot's grant arrived after the slot had passed: unused, the task asked again. */
  RATE_LATE("rate.late"),
  /** A task names a rate limit that is not defined: it waits for it. */
  RATE_UNDEFINED("rate.undefined"),
  /** An answer to an ask its task no longer waits for (a duplicate, or the task moved on). */
  RATE_STALE("rate.stale"),
  /**
   * A worker sent an attempt back unstarted: its slot had passed by more than a second when it
   * could start it (a redelivery after a worker crash, a busy worker). The task asked again.
   */
  RATE_MISSED("rate.missed"),
  /** A task whose unique window ends with it ended: its release went to the relay. */
  UNIQUE_RELEASED("unique.released"),
  /** A batch's callback task was made ({@code BatchBook}). */
  BATCH_CALLBACK("batch.callback"),
  /** A batch part written after the batch's seal was refused; its tasks run outside it. */
  BATCH_LATE("batch.late"),
  /** A schedule fire dispatched ahead of its instant, for a worker that holds it until then. */
  DISPATCHED_AHEAD("dispatched.ahead"),
  /** An attempt's deadline passed without a result. */
  TIMEOUT("timeout"),
  /** A task went DEAD. */
  DEAD("dead"),
  /** A task went DEAD while its handler's DLT topic does not exist. */
  DLT_MISSING("dlt.missing"),
  /** A finished task (or placeholder) was purged at the end of its retention. */
  PURGED("purged"),
  /** A due-index entry that no longer matched its task's record; removed. */
  TIMER_STALE("timer.stale"),
  /**
   * A punctuator tick that stopped firing timers so that waiting input records get the thread
   * ({@link TimerShare}); the timers left fire at the next ticks.
   */
  TIMERS_YIELDED("timers.yielded"),
  /** A missing due-index entry written back after a restart. */
  TIMER_HEALED("timer.healed"),
  /** A record the timer write-back could not read; skipped. */
  TIMER_HEAL_UNREADABLE("timer.heal-unreadable"),
  /** A search-index entry a crash lost, written back by the timer write-back pass. */
  INDEX_HEALED("index.healed"),
  /**
   * The dispatch of an attempt dispatched just before a restart, sent again by the timer write-back
   * pass (a crash or a failed produce may have lost it while keeping the record).
   */
  DISPATCH_RESENT("dispatch.resent"),
  /** A cancel for a task not (yet) stored: a CANCELLED marker. */
  CANCEL_EARLY("cancel.early"),
  /** A cancel for a finished task. */
  CANCEL_IGNORED("cancel.ignored"),
  /** A task was cancelled. */
  CANCELLED("cancelled"),
  /** A due task of a paused handler was held in its queue. */
  PAUSED_HELD("paused.held"),
  /** A DISPATCHED task was cancelled: its running attempt was sent an interrupt. */
  INTERRUPT_SENT("interrupt.sent"),
  /** A retry-dead for a task that is not DEAD. */
  RETRY_DEAD_IGNORED("retry-dead.ignored"),
  /** A trigger for a task that is not PENDING, RETRYING or NO_HANDLER. */
  TRIGGER_IGNORED("trigger.ignored"),
  /** A trigger for a queued task: it keeps its place. */
  TRIGGER_QUEUED("trigger.queued"),
  /** A discard for a task that is not DEAD. */
  DISCARD_IGNORED("discard.ignored"),
  /** An await refused: the dependency has {@code max-waiters-per-task} waiters. */
  WAITERS_CAP("waiters.cap"),
  /** A dependency-done for a task that is not WAITING. */
  DEPENDENCY_DONE_IGNORED("dependency-done.ignored"),
  /** A WAITING task found itself on a dependency cycle. */
  DEPENDENCY_CYCLE("dependency-cycle"),
  /** A cycle probe whose path grew past its limit; not sent. */
  DEPENDENCY_PROBE_DROPPED("dependency-probe.dropped"),
  /** An output record larger than the producer accepts; skipped. */
  PRODUCE_TOO_LARGE("produce.too-large"),
  /** An output record that could not be serialized; skipped. */
  PRODUCE_UNSERIALIZABLE("produce.unserializable"),
  /** A schedule definition was applied (new, or a higher version). */
  SCHEDULE_DEFINED("schedule.defined"),
  /** A schedule definition or unschedule older than the stored version; ignored. */
  SCHEDULE_STALE("schedule.stale"),
  /** A repeat of the stored schedule definition; ignored. */
  SCHEDULE_DUPLICATE("schedule.duplicate"),
  /** A schedule was deleted. */
  SCHEDULE_DELETED("schedule.deleted"),
  /** A deleted schedule forgotten, with its fire history, once the retention passed. */
  SCHEDULE_PURGED("schedule.purged"),
  /** A task was made from a schedule's fire (one per shard). */
  SCHEDULE_FIRED("schedule.fired"),
  /** A schedule's timer fired and its misfire policy skipped every due fire. */
  SCHEDULE_MISFIRE_SKIPPED("schedule.misfire-skipped"),
  /** A fire made no task because an earlier fire still ran ({@code SKIP_IF_RUNNING}). */
  SCHEDULE_OVERLAP_SKIPPED("schedule.overlap-skipped"),
  /** A fire waits for the running one ({@code overlap: QUEUE}). */
  SCHEDULE_QUEUED("schedule.queued"),
  /** A fire was skipped because one already waited ({@code overlap: QUEUE}). */
  SCHEDULE_QUEUE_FULL("schedule.queue-full"),
  /** A running fire's unfinished tasks were cancelled for a new one ({@code REPLACE}). */
  SCHEDULE_REPLACED("schedule.replaced"),
  /** A manual trigger or a child start was applied. */
  SCHEDULE_TRIGGERED("schedule.triggered"),
  /** A trigger or child start for a fire the schedule already has; ignored. */
  SCHEDULE_TRIGGER_DUPLICATE("schedule.trigger-duplicate"),
  /** A trigger of a paused schedule; recorded as skipped. */
  SCHEDULE_PAUSED_SKIPPED("schedule.paused-skipped"),
  /** A fire's finished task was recorded in its schedule's history. */
  SCHEDULE_FIRE_DONE("schedule.fire-done"),
  /** A finished-task notice for a fire or task the schedule does not track; ignored. */
  SCHEDULE_FIRE_DONE_UNKNOWN("schedule.fire-done-unknown"),
  /** A child schedule was started after a fire succeeded. */
  SCHEDULE_CHILD_STARTED("schedule.child-started"),
  /** Children not started because the chain is deeper than the limit. */
  SCHEDULE_CHILD_TOO_DEEP("schedule.child-too-deep"),
  /** An ALL_WORKERS fire found no live consumer count; it made one task. */
  SCHEDULE_WORKERS_UNKNOWN("schedule.workers-unknown");

  private final String tag;

  SchedulerEvent(String tag) {
    this.tag = tag;
  }

  /** The value of the exported {@code event} tag. */
  public String tag() {
    return tag;
  }

  /** The input's record did not decode or was refused; {@code input} as in {@code Inputs}. */
  public static SchedulerEvent invalid(String input) {
    return ofInput(input, INVALID_TASKS, INVALID_RESULTS, INVALID_CONTROL);
  }

  /** The input's record carried a wrong key. */
  public static SchedulerEvent wrongKey(String input) {
    return ofInput(input, WRONG_KEY_TASKS, WRONG_KEY_RESULTS, WRONG_KEY_CONTROL);
  }

  /** The input's record failed while it was applied. */
  public static SchedulerEvent error(String input) {
    return ofInput(input, ERROR_TASKS, ERROR_RESULTS, ERROR_CONTROL);
  }

  private static SchedulerEvent ofInput(
      String input, SchedulerEvent tasks, SchedulerEvent results, SchedulerEvent control) {
    return switch (input) {
      case "tasks" -> tasks;
      case "results" -> results;
      case "control" -> control;
      default -> throw new IllegalArgumentException("unknown input " + input);
    };
  }
}
