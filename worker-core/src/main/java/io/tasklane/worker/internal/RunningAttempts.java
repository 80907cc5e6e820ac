package io.tasklane.worker.internal;

import io.tasklane.core.TaskInterrupt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The attempts this worker runs now, by task id, and the interrupts it received lately. An
 * interrupt ({@code <ns>.interrupts}) stops the matching attempt (same task id and attempt number);
 * one that arrives before its attempt started (the dispatch still queued in the pool) is remembered
 * (the last {@link #REMEMBERED} of them) and stops the attempt as it starts. Thread-safe: attempts
 * register on pool threads, interrupts arrive on the interrupt listener's thread, the heartbeat
 * reads from its own.
 */
final class RunningAttempts {
  /** Interrupts remembered for attempts not (yet) running here. */
  static final int REMEMBERED = 10_000;

  private final Map<String, TaskExecution> running = new ConcurrentHashMap<>();
  private final Map<String, TaskInterrupt> recent =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TaskInterrupt> eldest) {
          return size() > REMEMBERED;
        }
      };

  /** Set once the first interrupt was remembered. */
  private volatile boolean anyInterrupt;

  /**
   * Pool thread: {@code exec} (decoded, RUNNING) starts; stopped at once if already interrupted.
   */
  void register(TaskExecution exec) {
    running.put(exec.taskId(), exec);
    if (!anyInterrupt) {
      return; // no interrupt ever came: no lock shared by every pool thread
    }
    TaskInterrupt early;
    synchronized (recent) {
      early = recent.get(exec.taskId());
    }
    if (early != null) {
      exec.interrupt(early);
    }
  }

  /** Pool thread: {@code exec} is over. */
  void remove(TaskExecution exec) {
    running.remove(exec.taskId(), exec);
  }

  /**
   * Listener thread: interrupts the running attempt {@code interrupt} names; true when one was
   * stopped here.
   */
  boolean interrupt(TaskInterrupt interrupt) {
    if (interrupt.id() == null) {
      return false;
    }
    synchronized (recent) {
      recent.put(interrupt.id(), interrupt);
    }
    // written after the put, read by register after its own put of the attempt: either the
    // attempt's registration sees the flag or this lookup sees the attempt
    anyInterrupt = true;
    TaskExecution exec = running.get(interrupt.id());
    return exec != null && exec.interrupt(interrupt);
  }

  /** Any thread: the ids of the tasks running now, by handler name (sorted). */
  Map<String, List<String>> byHandler() {
    Map<String, List<String>> out = new TreeMap<>();
    for (TaskExecution exec : running.values()) {
      out.computeIfAbsent(exec.handlerName(), h -> new ArrayList<>()).add(exec.taskId());
    }
    return out;
  }
}
