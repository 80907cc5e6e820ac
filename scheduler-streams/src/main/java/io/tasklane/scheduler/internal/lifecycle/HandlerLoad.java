package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One stream task's per-handler load: attempts out (records in DISPATCHED), tasks waiting in the
 * handler's queue (records whose timer is {@link TimerKind#QUEUED}) and the {@link DispatchWindow}
 * that bounds the attempts out. In memory only, part of the stream task's {@link TaskMemory}:
 * {@link FlowControlQueues} counts it from the due-index the first time it is asked, and {@link
 * TaskStore} keeps it up to date on every write after that. Used on the task's stream thread only.
 */
final class HandlerLoad {
  private final Map<String, Integer> dispatched = new HashMap<>();
  private final Map<String, Integer> queued = new TreeMap<>(); // sorted like the index
  private final Map<String, DispatchWindow> windows = new HashMap<>();
  private boolean counted;

  /** False until the counts were read from the index. */
  boolean counted() {
    return counted;
  }

  /** The counts read from the index are complete; from now on every write moves them. */
  void markCounted() {
    counted = true;
  }

  /** The attempts of {@code handler} out right now. */
  int dispatched(String handler) {
    return dispatched.getOrDefault(handler, 0);
  }

  /**
   * The most attempts of {@code handler} out now: its {@link DispatchWindow}, within {@code max}.
   */
  int limit(String handler, int max) {
    DispatchWindow w = windows.get(handler);
    return w == null ? max : w.limit(max);
  }

  /** Whether the {@link DispatchWindow} of {@code handler} is in force. */
  boolean sized(String handler) {
    DispatchWindow w = windows.get(handler);
    return w != null && w.inForce();
  }

  /** The window of {@code handler}, made when its first result is measured. */
  DispatchWindow window(String handler) {
    return windows.computeIfAbsent(handler, h -> new DispatchWindow());
  }

  /** About how many tasks of {@code handler} wait in its queue (a hint, see FlowControlQueues). */
  int queued(String handler) {
    return queued.getOrDefault(handler, 0);
  }

  /** Handlers whose queued count is above zero (a hint). */
  List<String> queuedHandlers() {
    return new ArrayList<>(queued.keySet());
  }

  /** The handler's queue turned out empty: forget a count left by stale queue entries. */
  void queueEmpty(String handler) {
    queued.remove(handler);
  }

  /** One more attempt of {@code handler} out, found while counting. */
  void countDispatched(String handler) {
    bump(dispatched, handler, 1);
  }

  /** One more task in {@code handler}'s queue, found while counting. */
  void countQueued(String handler) {
    bump(queued, handler, 1);
  }

  /** Accounts for {@code previous} (null when new) becoming {@code next} (null when deleted). */
  void moved(TaskRecord previous, TaskRecord next) {
    if (!counted) {
      return;
    }
    add(previous, -1);
    add(next, 1);
  }

  private void add(TaskRecord r, int delta) {
    if (r == null || r.task() == null) {
      return;
    }
    if (r.state() == TaskState.DISPATCHED) {
      bump(dispatched, r.task().handler(), delta);
    }
    if (r.timerKind() == TimerKind.QUEUED) {
      bump(queued, r.task().handler(), delta);
    }
  }

  private static void bump(Map<String, Integer> map, String handler, int delta) {
    int next = map.getOrDefault(handler, 0) + delta;
    if (next <= 0) {
      map.remove(handler);
    } else {
      map.put(handler, next);
    }
  }
}
