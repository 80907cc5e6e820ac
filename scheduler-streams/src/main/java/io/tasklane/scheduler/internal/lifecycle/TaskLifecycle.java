package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlRecord;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskValidator;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The one owner of the tasks of one stream task: every transition of a task — admit, wait, queue,
 * dispatch, finish, retry, dead, cancel, purge — is a call on it, and every write of a task record,
 * of its timers, index entries and counts goes through {@link #commit}, {@link #forget} and the few
 * timer-entry methods here, into its {@link TaskStore}, which no other class writes (an ArchUnit
 * rule). The decisions are made by the small family of classes it owns: {@link Admissions}, {@link
 * Results}, {@link Commands} (with {@link CycleProbes}), {@link TimerFiring}, the {@link
 * Dispatcher} and the {@link Transitions} they share; they edit a {@link TaskRecord.Edit} and
 * forward records, and hand the edit back here to be stored.
 *
 * <p>One instance per stream task, made once when its processor opens ({@code TaskProcessor}) and
 * holding everything the stream task keeps (its stores and its {@link TaskMemory}); nothing is
 * shared with other stream tasks. Used on the stream task's thread only (processing and
 * punctuation); its writes and forwarded records go out with the task's next commit.
 */
public final class TaskLifecycle {
  private static final TaskValidator VALIDATOR =
      new TaskValidator(new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));

  public final Engine engine;
  public final Outputs out;
  private final TaskStore store;
  private final int partition;
  final Dispatcher dispatcher;
  final Transitions transitions;
  private final Admissions admissions;
  private final Results results;
  private final Commands commands;
  final TimerFiring timers;
  final RateOwner rateOwner;

  /** Opens the stores of the processor's stream task ({@code init}, stream thread). */
  public TaskLifecycle(ProcessorContext<String, Object> context, Engine engine) {
    this.engine = engine;
    this.out = new Outputs(context);
    this.store = new TaskStore(context, engine.memory(), engine.controls());
    this.partition = context.taskId().partition();
    this.dispatcher = new Dispatcher(this, store, engine, out);
    this.transitions = new Transitions(engine, out, dispatcher);
    this.admissions = new Admissions(this, store);
    this.results = new Results(this, store);
    this.commands = new Commands(this, store);
    this.timers = new TimerFiring(this, store);
    this.rateOwner = new RateOwner(context, engine, out);
  }

  /** The schedules' timer entries in this stream task's due-index. */
  public ScheduleTimerEntries scheduleTimers() {
    DueIndex index = store.dueIndex();
    return new ScheduleTimerEntries() {
      @Override
      public void put(long at, String timerId) {
        index.put(at, timerId, TimerKind.SCHEDULE);
      }

      @Override
      public void delete(long at, String timerId) {
        index.delete(at, timerId);
      }

      @Override
      public boolean has(long at, String timerId) {
        return index.has(at, timerId);
      }
    };
  }

  /** Who is told when a task reaches a terminal state (the schedules; set once, at open). */
  public void onFinished(Transitions.FinishListener listener) {
    transitions.onFinished(listener);
  }

  /** Where schedule timers fire and are repaired (the schedules; set once, at open). */
  public void onScheduleTimers(TimerFiring.ScheduleTimers schedules) {
    timers.onScheduleTimers(schedules);
  }

  /** The punctuator that fires this stream task's timers ({@link DuePunctuator}). */
  public Punctuator punctuator() {
    return new DuePunctuator(this);
  }

  /**
   * Handles an input record written at {@code timestamp}, handed at {@code now}, and accounts for
   * its processing time on this stream thread ({@link TimerShare}).
   */
  public void timed(long timestamp, long now, Runnable handle) {
    store.opened(now);
    long began = engine.nanoTime().getAsLong();
    try {
      handle.run();
    } finally {
      long end = engine.nanoTime().getAsLong();
      engine
          .memory()
          .input()
          .processed(
              timestamp, now, end - began, end, engine.settings().punctuationInterval().toNanos());
    }
  }

  /** The stream task closes: so does its store. */
  public void close() {
    store.close();
  }

  /** Forgets what is kept in memory, to be derived from the stores again (tests: a reopen). */
  public void forgetMemory() {
    store.forgetMemory();
  }

  /**
   * The routing key records about task {@code id} must carry: its envelope's ({@code orderingKey}
   * or id) when the task lives here, else the id (results and commands for a task that is not here
   * are keyed by its id; an ordering key would have brought them to the task).
   */
  public String routingKeyOf(String id) {
    TaskRecord r = store.get(id);
    return r != null && r.task() != null ? r.task().routingKey() : id;
  }

  // ---- inputs ----

  /** A validated task from {@code <ns>.tasks} ({@link Admissions}). */
  public void admit(TaskEnvelope task, long now) {
    admissions.admit(task, now);
  }

  /**
   * A schedule fire's task made by this stream task: admitted here, as if it had come back from
   * {@code <ns>.tasks}, when its routing key lands in this partition (by Kafka's default key
   * hashing over the tasks topic's partitions), which saves the fire a record written, fetched and
   * decoded. Its payload and limits come from a validated definition; a task the validator still
   * refuses goes through the topic and is rejected there, dead-lettered as any. Returns whether it
   * was admitted here.
   */
  public boolean admitHere(TaskEnvelope task, long now) {
    int partitions = engine.settings().partitions();
    if (partitions <= 0 || TaskIds.partitionOf(task.routingKey(), partitions) != partition) {
      return false;
    }
    try {
      VALIDATOR.validate(task, 0, now);
    } catch (InvalidTaskException e) {
      return false;
    }
    admissions.admit(task, now);
    engine.metrics().count(SchedulerEvent.ADMITTED_HERE);
    return true;
  }

  /**
   * A worker's result ({@link Results}).
   *
   * @throws ResultMismatch when it does not answer its dispatch (the task is unchanged)
   */
  public void result(TaskResult result, long now) {
    results.apply(result, now);
    dispatcher.releaseFreed(now);
  }

  /** A cancel (transactional, or an operator's), {@link Commands#cancel}. */
  public void cancel(String id, String reason, long now) {
    commands.cancel(id, reason, now);
    dispatcher.releaseFreed(now);
  }

  /** An operator command or a record of the dependency protocol ({@link Commands}). */
  public void command(ControlRecord value, long now) {
    commands.apply(value, now);
    dispatcher.releaseFreed(now);
  }

  /**
   * A dependency-protocol record that came on the wrong topic, only re-checked ({@link Commands}).
   */
  public void recheck(ControlRecord value, long now) {
    commands.recheck(value, now);
  }

  // ---- timers (punctuator) ----

  /** Notes {@code now} as the instant the stream task opened unless noted already. */
  void opened(long now) {
    store.opened(now);
  }

  /** Counts the handlers' load and upgrades the counts' format, before any timer moves them. */
  void beforeTimers() {
    store.queues().countLoad();
    store.upgradeCounts();
  }

  /**
   * Writes back lost index entries of the next records, a slice, and sends again the dispatches of
   * attempts dispatched shortly before the stream task opened ({@link TimerRepair}).
   */
  void repairTimers(int slice, long budgetNanos, long now) {
    store.repairTimers(slice, budgetNanos, engine.metrics(), now, dispatcher.resends);
  }

  /** Up to {@code bound} timers due at or before {@code now} ({@link TaskStore#due}). */
  List<DueIndex.Entry> due(long now, int bound) {
    return store.due(now, bound);
  }

  /** The value of the due-index entry {@code key} now, or null when it is no longer there. */
  byte[] timerEntry(Bytes key) {
    return store.entry(key);
  }

  /** Takes an entry read from the index out of it: it fires, is stale, or failed. */
  void removeTimerEntry(Bytes key) {
    store.removeEntry(key);
  }

  /** Takes a queue entry (a search entry) out: its task no longer waits under it, or failed. */
  void removeQueueEntry(Bytes key) {
    store.removeQueueEntry(key);
  }

  /** Releases queued tasks into free slots ({@link Dispatcher#releaseQueued}). */
  int releaseQueued(long now, int budget) {
    return dispatcher.releaseQueued(now, budget, timers::poisonedQueued);
  }

  /**
   * Forgets finished tasks whose retention passed ({@link FinishedPurge}), at most {@code bound}.
   */
  int purgeFinished(long now, int bound) {
    return store.purgeFinished(
        now, engine.settings().retentionMs(), bound, timers::purgeFailed, engine.metrics());
  }

  /** Merges the report figures and hands the queued counts to the backlog rule (punctuator). */
  void flushReports(long now) {
    store.flushReports(now);
  }

  // ---- the one write path ----

  /** Stores {@code e} as task {@code id}'s record in place of {@code previous} (null when new). */
  void commit(String id, TaskRecord previous, TaskRecord.Edit e) {
    store.put(id, previous, e.build());
  }

  /**
   * Stores {@code e} in place of {@code fired}, whose time entry the punctuator took out of the
   * index when it fired.
   */
  void commitFired(String id, TaskRecord fired, TaskRecord.Edit e) {
    store.putFired(id, fired, e.build());
  }

  /** Forgets task {@code id}: its record, its timer and its count. */
  void forget(String id, TaskRecord previous) {
    store.delete(id, previous);
  }

  /** Forgets {@code fired}, whose time entry the punctuator took out of the index already. */
  void forgetFired(String id, TaskRecord fired) {
    store.deleteFired(id, fired);
  }

  /** Forgets a task whose record cannot be read, found by its search entry {@code key}. */
  void forgetUnreadable(String id, Bytes key) {
    store.forgetUnreadable(id, key);
  }

  /** Writes {@code record}'s index entry again (a repeated input, see {@link TimerRepair}). */
  void reassert(String id, TaskRecord record) {
    store.reassertTimer(id, record);
  }
}
