package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.processor.TaskId;

/**
 * What one stream task keeps in memory beside its stores: its {@link HandlerLoad}, how far the
 * {@link TimerRepair} has read, and copies of what its processors wrote or read last (task records
 * and state counts), so that a read of them costs neither a RocksDB read nor a JSON decode. Derived
 * from the stores, never written to them, so a crash cannot leak a slot for longer than the process
 * lives. Owned by the stream task's {@link TaskStore}, made afresh when the stream task opens (so
 * after restoration, and again after every crash or move). Used on the task's stream thread only.
 */
public final class TaskMemory {
  /**
   * How many task records {@link #recent} keeps: more than the attempts one handler may have out
   * per partition by default ({@code max-dispatched}).
   */
  static final int RECENT_RECORDS = 2_048;

  final HandlerLoad load = new HandlerLoad();

  /** The rings of turns and freed lanes of the stream task's {@link Lanes}. */
  final LaneMemory lanes = new LaneMemory();

  /**
   * The DISPATCHED task records written or read last through {@link TaskStore}, the newest {@link
   * #RECENT_RECORDS}: each equals the store's value, as every write of the task store goes through
   * the stream task's one {@link TaskStore}, which updates it (records are immutable).
   */
  final Map<String, TaskRecord> recent =
      new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TaskRecord> eldest) {
          return size() > RECENT_RECORDS;
        }
      };

  /**
   * Keeps {@code record} (the store's value of {@code id} now, null when none) in {@link #recent}
   * when it is DISPATCHED, as its result is expected soon, and else drops any copy: a task queued
   * at admission is read again only when its turn comes, maybe minutes and many thousands of
   * records later, so keeping it would only push out the records that results need.
   */
  void remember(String id, TaskRecord record) {
    if (record != null && record.state() == TaskState.DISPATCHED) {
      recent.put(id, record);
    } else {
      recent.remove(id);
    }
  }

  /** The state counts read or written so far ({@link StateCounts}), by store key. */
  final Map<String, Long> counts = new HashMap<>();

  /** The report figures not yet merged into the report stores, and the dead alert. */
  final ReportRecorder reports;

  /** The last record key the timer repair read, null before the first slice. */
  String repairedUpTo;

  /** True once the timer repair has read the whole store. */
  boolean repaired;

  /**
   * When the stream task opened: the time of its first input record or punctuation since this
   * memory was derived ({@link TaskStore#opened}), {@link Long#MIN_VALUE} before. The timer repair
   * sends the dispatches of attempts dispatched shortly before it again ({@link TimerRepair}).
   */
  long openedAt = Long.MIN_VALUE;

  /**
   * No time entry of the due-index is due before this instant, so a punctuator tick before it reads
   * nothing ({@link DueIndex#due}); {@link Long#MIN_VALUE} (unknown) until the first scan. Each
   * scan sets it to the first entry after it (within a horizon), each time entry written lowers it.
   */
  long nextDueAt = Long.MIN_VALUE;

  /**
   * No finished task's search entry is past the retention before this instant, so a tick before it
   * runs no purge pass ({@link FinishedPurge}); {@link Long#MIN_VALUE} (unknown) until the first.
   */
  long nextPurgeAt = Long.MIN_VALUE;

  /**
   * Per (finished state, handler) group of the search index, the {@code updatedAt} up to which the
   * purge has deleted its entries: the next pass seeks there instead of stepping over their
   * deletions again ({@link FinishedPurge}).
   */
  final Map<String, Long> purgedUpTo = new HashMap<>();

  /** The deadlines of the attempts out ({@link DeadlineTimers}), added when the load is counted. */
  final DeadlineTimers deadlines = new DeadlineTimers();

  TaskMemory(AlertSignals alerts) {
    this.reports = new ReportRecorder(alerts);
  }

  /**
   * What the processors and punctuators of one stream thread's tasks did, for the {@link
   * TimerShare} of its punctuators: the input processing time not yet matched by timers (the
   * credit), how late the latest input record was processed and when, and how busy the thread was
   * in its current and last window. Used on that thread only.
   */
  public static final class ThreadInput {
    long creditNanos;
    long lagMs;
    long lastAtNanos = Long.MIN_VALUE;

    /** Start of the current window of the nano clock, {@link Long#MIN_VALUE} before the first. */
    long windowStartNanos = Long.MIN_VALUE;

    /** Input and timer time measured in the current window. */
    long busyNanos;

    /** Whether the thread was busy for most of its last window. */
    boolean contended;

    /**
     * A record written at {@code timestamp}, handed at {@code now} (wall clock), took {@code took}
     * ns and ended at {@code endNanos} (the engine's nano clock); the credit stays within {@code
     * capNanos}.
     */
    void processed(long timestamp, long now, long took, long endNanos, long capNanos) {
      creditNanos = Math.min(capNanos, creditNanos + took);
      busyNanos += took;
      lagMs = now - timestamp;
      lastAtNanos = endNanos;
    }
  }

  /**
   * What the stream tasks of one process share: the alerts their transitions raise and each stream
   * thread's input accounting. Holds no state of any stream task: each {@link TaskLifecycle} keeps
   * its own memory. Thread-safe.
   */
  public static final class Shared {
    private final ThreadLocal<ThreadInput> input = ThreadLocal.withInitial(ThreadInput::new);
    private final AlertSignals alerts;
    private volatile BiConsumer<TaskId, Runnable> opened = (task, forget) -> {};

    /** Stream tasks whose transitions raise no alerts. */
    public Shared() {
      this(AlertSignals.NONE);
    }

    /** Stream tasks whose transitions raise {@code alerts}. */
    public Shared(AlertSignals alerts) {
      this.alerts = alerts;
    }

    /** A new, empty memory for a stream task that opens. */
    public TaskMemory open() {
      return new TaskMemory(alerts);
    }

    /** The input record accounting of the calling stream thread. */
    public ThreadInput input() {
      return input.get();
    }

    /**
     * Stream task {@code task} opened; {@code forgetMemory} makes it derive what it keeps in memory
     * from its stores again, as a reopen after a crash or a move does. Tells the listener set with
     * {@link #onOpened} (tests); nothing is kept here.
     */
    public void opened(TaskId task, Runnable forgetMemory) {
      opened.accept(task, forgetMemory);
    }

    /** Who is told when a stream task opens (tests). */
    public void onOpened(BiConsumer<TaskId, Runnable> listener) {
      this.opened = listener;
    }
  }
}
