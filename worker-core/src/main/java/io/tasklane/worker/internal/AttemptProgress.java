package io.tasklane.worker.internal;

import io.tasklane.core.TaskLogLine;
import java.time.Clock;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The progress updates of one attempt ({@code TaskContext.progress}), at most one a second on the
 * logs topic: the first goes out at once, a later one within a second of the last sent waits as the
 * pending value (a newer call replaces it) and goes out a second after the last sent, from the
 * worker's timer thread, or when the attempt ends ({@link #flush}). Nothing here throws to the
 * handler; an update that cannot be sent is dropped. Thread-safe: the handler's threads call {@link
 * #report}, the timer thread and the attempt's thread send.
 */
final class AttemptProgress {
  static final long EVERY_MS = 1_000;

  private final String taskId;
  private final int attempt;
  private final String worker;
  private final Consumer<TaskLogLine> send;
  private final Clock clock;
  private final ScheduledExecutorService timers;
  private long lastSentAt = Long.MIN_VALUE / 2; // far back, without overflow in now − it
  private TaskLogLine pending;
  private boolean timerSet;
  private boolean ended;

  AttemptProgress(
      String taskId,
      int attempt,
      String worker,
      Consumer<TaskLogLine> send,
      Clock clock,
      ScheduledExecutorService timers) {
    this.taskId = taskId;
    this.attempt = attempt;
    this.worker = worker;
    this.send = send;
    this.clock = clock;
    this.timers = timers;
  }

  /** A handler's update: sent now, or kept as the pending value until its second comes. */
  void report(int percent, String message) {
    long now = clock.millis();
    TaskLogLine line = TaskLogLine.progress(taskId, attempt, now, percent, message, worker);
    TaskLogLine out = null;
    synchronized (this) {
      if (ended) {
        return;
      }
      if (now - lastSentAt >= EVERY_MS && !timerSet) {
        lastSentAt = now;
        out = line;
      } else {
        pending = line;
        if (!timerSet) {
          timerSet = schedule(lastSentAt + EVERY_MS - now);
        }
      }
    }
    if (out != null) {
      publish(out);
    }
  }

  /** The attempt ended: the pending value, if any, goes out now; later calls are ignored. */
  void flush() {
    TaskLogLine out;
    synchronized (this) {
      ended = true;
      out = pending;
      pending = null;
    }
    if (out != null) {
      publish(out);
    }
  }

  private boolean schedule(long delayMs) {
    try {
      timers.schedule(this::sendPending, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
      return true;
    } catch (RejectedExecutionException e) {
      return false; // stopping: the pending value goes out with flush, or not at all
    }
  }

  /** Timer thread: the pending value's second came. */
  private void sendPending() {
    TaskLogLine out;
    synchronized (this) {
      timerSet = false;
      out = ended ? null : pending;
      pending = null;
      if (out != null) {
        lastSentAt = clock.millis();
      }
    }
    if (out != null) {
      publish(out);
    }
  }

  private void publish(TaskLogLine line) {
    try {
      send.accept(line);
    } catch (RuntimeException e) {
      // a lost update changes nothing about the task
    }
  }
}
