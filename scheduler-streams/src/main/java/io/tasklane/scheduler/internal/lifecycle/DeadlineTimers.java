package io.tasklane.scheduler.internal.lifecycle;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The deadlines of one stream task's DISPATCHED attempts, in memory instead of due-index entries:
 * dispatching an attempt and settling it write no changelog record for its timer. They are derived
 * from the records, never stored: when the stream task opens, the load count ({@link
 * FlowControlQueues}) reads every DISPATCHED record through the search index and adds its deadline
 * here, and after a crash under at-least-once the write-back pass ({@link TimerRepair}) adds the
 * deadline of a DISPATCHED record whose search entry was lost. The set is bounded by the attempts
 * out ({@code max-dispatched} per handler). An entry whose record moved on is stale and is found so
 * when it fires, like a stale due-index entry. Used on the stream task's thread only.
 */
final class DeadlineTimers {
  /**
   * The ids by deadline: the attempts one punctuation or one poll dispatches share their instant,
   * so a deadline holds many ids and the tree stays small; the ids of one instant in the order
   * added.
   */
  private final TreeMap<Long, Set<String>> byInstant = new TreeMap<>();

  private int size;

  void add(long at, String id) {
    if (byInstant.computeIfAbsent(at, k -> new LinkedHashSet<>()).add(id)) {
      size++;
    }
  }

  void remove(long at, String id) {
    Set<String> ids = byInstant.get(at);
    if (ids != null && ids.remove(id)) {
      size--;
      if (ids.isEmpty()) {
        byInstant.remove(at);
      }
    }
  }

  int size() {
    return size;
  }

  /**
   * Takes up to {@code max} deadlines at or before {@code now} out of the set, earliest first (the
   * ids of one instant in the order they were added).
   */
  List<DueIndex.Entry> due(long now, int max) {
    List<DueIndex.Entry> due = new ArrayList<>();
    while (due.size() < max && !byInstant.isEmpty() && byInstant.firstKey() <= now) {
      Map.Entry<Long, Set<String>> first = byInstant.firstEntry();
      Iterator<String> ids = first.getValue().iterator();
      while (due.size() < max && ids.hasNext()) {
        due.add(DueIndex.Entry.inMemory(first.getKey(), ids.next(), TimerKind.DEADLINE));
        ids.remove();
        size--;
      }
      if (first.getValue().isEmpty()) {
        byInstant.pollFirstEntry();
      }
    }
    return due;
  }
}
