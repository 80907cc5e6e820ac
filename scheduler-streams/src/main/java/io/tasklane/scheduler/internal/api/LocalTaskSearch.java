package io.tasklane.scheduler.internal.api;

import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Function;

/**
 * One page of a search over the partitions this instance owns, read from their search index ({@link
 * TaskIndex}) and, where the filter or the row needs it, their task records. Sorted by updatedAt it
 * merges the index ranges of every (partition, state, handler) group in order, so a page stops
 * after {@code limit} matches or {@code bound} entries read and the next page starts right after
 * the last entry read; sorted by createdAt or dueAt it reads up to {@code bound} entries and keeps
 * the first {@code limit} matches after the cursor. An entry whose record moved on (a crash kept a
 * stale entry) is skipped. Called on Micronaut's blocking executor; reads only.
 */
public final class LocalTaskSearch {
  /** The stores of one partition. */
  public record Partition(TaskReads reads, Collection<Group> groups) {}

  /**
   * A (state, handler) group: one contiguous range of the index; {@code queued}: the group of its
   * tasks queued for a slot.
   */
  public record Group(TaskState state, String handler, boolean queued) {
    public Group(TaskState state, String handler) {
      this(state, handler, false);
    }
  }

  /**
   * A page of one instance.
   *
   * @param frontier where the next page starts (the last row, or the last entry read when the bound
   *     stopped the scan), null when nothing follows
   */
  public record Page(List<TaskRow> rows, boolean partial, long scanned, SearchPosition frontier) {}

  private final int bound;

  public LocalTaskSearch(int bound) {
    this.bound = bound;
  }

  public Page search(List<Partition> partitions, TaskQuery q) {
    List<Head> heads = new ArrayList<>();
    try {
      for (Partition p : partitions) {
        for (Group g : p.groups()) {
          Head h = open(p, g, q);
          if (h.advance()) {
            heads.add(h);
          } else {
            h.close();
          }
        }
      }
      return q.sort() == TaskQuery.Sort.UPDATED ? inIndexOrder(heads, q) : sorted(heads, q);
    } finally {
      heads.forEach(Head::close);
    }
  }

  private Page inIndexOrder(List<Head> heads, TaskQuery q) {
    Comparator<SearchPosition> order = SearchPosition.order(q.asc());
    PriorityQueue<Head> queue = new PriorityQueue<>((a, b) -> order.compare(a.pos, b.pos));
    queue.addAll(heads);
    List<TaskRow> rows = new ArrayList<>();
    long scanned = 0;
    while (!queue.isEmpty()) {
      Head h = queue.poll();
      SearchPosition pos = h.pos;
      scanned++;
      TaskRow row = pos.equals(q.cursor()) ? null : h.row(q);
      if (row != null) {
        rows.add(row);
      }
      if (h.advance()) {
        queue.add(h);
      }
      if (rows.size() == q.limit()) {
        return new Page(rows, false, scanned, pos);
      }
      if (scanned >= bound && !queue.isEmpty()) {
        return new Page(rows, true, scanned, pos);
      }
    }
    return new Page(rows, false, scanned, null);
  }

  private Page sorted(List<Head> heads, TaskQuery q) {
    Comparator<SearchPosition> order = SearchPosition.order(q.asc());
    Comparator<TaskRow> rowOrder =
        (a, b) -> order.compare(a.position(q.sort()), b.position(q.sort()));
    PriorityQueue<TaskRow> best = new PriorityQueue<>(rowOrder.reversed());
    long scanned = 0;
    boolean partial = false;
    for (Head h : heads) {
      do {
        if (scanned >= bound) {
          partial = true;
          break;
        }
        scanned++;
        TaskRow row = h.row(q);
        if (row != null
            && (q.cursor() == null || order.compare(row.position(q.sort()), q.cursor()) > 0)) {
          best.add(row);
          if (best.size() > q.limit()) {
            best.poll();
          }
        }
      } while (h.advance());
    }
    List<TaskRow> rows = new ArrayList<>(best);
    rows.sort(rowOrder);
    SearchPosition frontier =
        rows.size() == q.limit() ? rows.get(rows.size() - 1).position(q.sort()) : null;
    return new Page(rows, partial, scanned, frontier);
  }

  private static Head open(Partition p, Group g, TaskQuery q) {
    long lo = Math.max(0, q.filter().updatedFrom());
    long hi = Math.max(0, q.filter().updatedTo());
    SearchPosition c = q.sort() == TaskQuery.Sort.UPDATED ? q.cursor() : null;
    TaskReads.SearchScan scan =
        p.reads()
            .scan(
                g.state(),
                g.handler(),
                g.queued(),
                lo,
                hi,
                c == null ? 0 : c.value(),
                c == null ? null : c.id(),
                q.asc());
    return new Head(scan, g, p.reads()::task);
  }

  /** The current entry of one group's range. */
  private static final class Head {
    final TaskReads.SearchScan scan;
    final Group group;
    final Function<String, TaskRecord> records;
    SearchPosition pos;

    Head(TaskReads.SearchScan scan, Group group, Function<String, TaskRecord> records) {
      this.scan = scan;
      this.group = group;
      this.records = records;
    }

    /** Moves to the next entry (an entry deleted while the range is read is skipped). */
    boolean advance() {
      if (!scan.next()) {
        return false;
      }
      pos = new SearchPosition(scan.updatedAt(), scan.id());
      return true;
    }

    /** The row of the current entry when it matches {@code q}, else null. */
    TaskRow row(TaskQuery q) {
      String id = pos.id();
      long created = scan.createdAt();
      TaskFilter f = q.filter();
      if (created > q.asOf() || !f.matchesEntry(id, created)) {
        return null;
      }
      boolean needsRecord = f.needsRecord() || q.sort() == TaskQuery.Sort.DUE || !q.idsOnly();
      if (!needsRecord) {
        String ok = scan.orderingKey();
        return TaskRow.ofEntry(id, group.state(), group.handler(), pos.value(), ok, created);
      }
      TaskRecord r = records.apply(id);
      if (r == null
          || r.task() == null
          || r.state() != group.state()
          || (r.timerKind() == TimerKind.QUEUED) != group.queued()
          || TaskReads.indexedAt(r) != pos.value()
          || !f.matchesRecord(r)) {
        return null; // gone, moved on (a stale entry), or not a match
      }
      return TaskRow.of(id, r);
    }

    void close() {
      scan.close();
    }
  }
}
