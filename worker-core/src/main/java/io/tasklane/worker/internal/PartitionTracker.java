package io.tasklane.worker.internal;

import java.util.TreeSet;

/**
 * Offsets of one partition handed to the pool and not yet acknowledged. The committable position is
 * the lowest pending offset, or one past the highest started when none is pending, so an offset is
 * never committed before every record below it was acknowledged. Consumer thread only.
 */
final class PartitionTracker {
  private final TreeSet<Long> pending = new TreeSet<>();
  private long next = -1;
  private long committed = -1;

  void started(long offset) {
    pending.add(offset);
    next = Math.max(next, offset + 1);
  }

  void completed(long offset) {
    pending.remove(offset);
  }

  boolean idle() {
    return pending.isEmpty();
  }

  int pendingCount() {
    return pending.size();
  }

  /** The position to commit, or -1 when nothing new can be committed. */
  long commitPosition() {
    long position = pending.isEmpty() ? next : pending.first();
    return position > committed ? position : -1;
  }

  void committed(long position) {
    committed = Math.max(committed, position);
  }

  /** The last commit may have failed: the current position becomes committable again. */
  void forgetCommitted() {
    committed = -1;
  }
}
