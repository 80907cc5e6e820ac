package io.tasklane.scheduler.internal.lifecycle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one stream task keeps in memory about its {@link Lanes}: per handler, the ring of turns a
 * saturated handler releases its waiting tasks by (each lane with a task that may go, and the
 * handler's own queue of tasks without a key as one more turn), and the lanes a finished holder
 * freed since the last input. Derived, never stored: made afresh with the stream task's {@link
 * TaskMemory} and filled from the lanes store when the stream task opens ({@link Lanes#open}). Used
 * on the stream task's thread only.
 */
final class LaneMemory {
  /** The turn of a handler's tasks without a key (its flow-control queue) in the ring. */
  static Lane unkeyed(String handler) {
    return new Lane(handler, null, false);
  }

  boolean opened;

  /**
   * Per lane, the place of the waiting task released last: no task waits before it, but one a crash
   * put back ({@link Lanes#reassert}), which lowers it. Dropped when the lane's queue empties.
   */
  final Map<Lane, Long> releasedFrom = new HashMap<>();

  private final Map<String, ArrayDeque<Lane>> rings = new HashMap<>();
  private final Set<Lane> inRing = new HashSet<>();
  private final ArrayDeque<Lane> freed = new ArrayDeque<>();

  /** Puts {@code lane} (or a handler's unkeyed turn) at the end of its handler's ring, once. */
  void addTurn(Lane lane) {
    if (inRing.add(lane)) {
      rings.computeIfAbsent(lane.handler(), h -> new ArrayDeque<>()).add(lane);
    }
  }

  /** The next turn of {@code handler}'s ring, taken out of it; null when the ring is empty. */
  Lane nextTurn(String handler) {
    ArrayDeque<Lane> ring = rings.get(handler);
    Lane next = ring == null ? null : ring.poll();
    if (next != null) {
      inRing.remove(next);
    }
    if (ring != null && ring.isEmpty()) {
      rings.remove(handler);
    }
    return next;
  }

  /** Whether {@code handler}'s ring holds a lane (not only its unkeyed turn). */
  boolean hasLaneTurns(String handler) {
    ArrayDeque<Lane> ring = rings.get(handler);
    if (ring == null) {
      return false;
    }
    return ring.size() > 1 || ring.peek().key() != null;
  }

  /** The handlers whose ring holds a lane. */
  List<String> handlersWithLaneTurns() {
    List<String> out = new ArrayList<>(rings.size());
    for (String h : rings.keySet()) {
      if (hasLaneTurns(h)) {
        out.add(h);
      }
    }
    return out;
  }

  /** A holder of {@code lane} finished and a task waits in it. */
  void freed(Lane lane) {
    freed.add(lane);
  }

  /** The lanes freed since the last call, in order; the list is emptied. */
  List<Lane> drainFreed() {
    if (freed.isEmpty()) {
      return List.of();
    }
    List<Lane> out = new ArrayList<>(freed);
    freed.clear();
    return out;
  }
}
