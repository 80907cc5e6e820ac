package io.tasklane.scheduler.internal.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

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
  private record Deadline(long at, String id) implements Comparable<Deadline> {
    @Override
    public int compareTo(Deadline o) {
      int c = Long.compare(at, o.at);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  private final TreeSet<Deadline> set = new TreeSet<>();

  void add(long at, String id) {
    set.add(new Deadline(at, id));
  }

  void remove(long at, String id) {
    set.remove(new Deadline(at, id));
  }

  int size() {
    return set.size();
  }

  /** Takes up to {@code max} deadlines at or before {@code now} out of the set, earliest first. */
  List<DueIndex.Entry> due(long now, int max) {
    List<DueIndex.Entry> due = new ArrayList<>();
    while (due.size() < max && !set.isEmpty() && set.first().at() <= now) {
      Deadline d = set.pollFirst();
      due.add(DueIndex.Entry.inMemory(d.at(), d.id(), TimerKind.DEADLINE));
    }
    return due;
  }
}
