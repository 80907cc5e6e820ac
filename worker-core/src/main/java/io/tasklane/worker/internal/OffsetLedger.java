package io.tasklane.worker.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@link PartitionTracker}s of one consumer: which offsets are handed out, which are
 * acknowledged, and what may be committed. Consumer thread only.
 */
final class OffsetLedger {
  private final Map<TopicPartition, PartitionTracker> trackers = new HashMap<>();

  void started(TopicPartition tp, long offset) {
    trackers.computeIfAbsent(tp, k -> new PartitionTracker()).started(offset);
  }

  /** Records an acknowledgement; ignored for a partition no longer owned. */
  void completed(TopicPartition tp, long offset) {
    PartitionTracker t = trackers.get(tp);
    if (t != null) {
      t.completed(offset);
    }
  }

  /** New committable positions of the partitions matched. */
  Map<TopicPartition, OffsetAndMetadata> committable(Predicate<TopicPartition> which) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    trackers.forEach(
        (tp, t) -> {
          long position = t.commitPosition();
          if (position >= 0 && which.test(tp)) {
            offsets.put(tp, new OffsetAndMetadata(position));
          }
        });
    return offsets;
  }

  void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
    offsets.forEach(
        (tp, o) -> {
          PartitionTracker t = trackers.get(tp);
          if (t != null) {
            t.committed(o.offset());
          }
        });
  }

  /** An asynchronous commit failed: commit these partitions again next time. */
  void commitFailed(Collection<TopicPartition> partitions) {
    partitions.forEach(
        tp -> {
          PartitionTracker t = trackers.get(tp);
          if (t != null) {
            t.forgetCommitted();
          }
        });
  }

  boolean busy(Predicate<TopicPartition> which) {
    return trackers.entrySet().stream()
        .anyMatch(e -> which.test(e.getKey()) && !e.getValue().idle());
  }

  int pending() {
    return trackers.values().stream().mapToInt(PartitionTracker::pendingCount).sum();
  }

  void remove(Collection<TopicPartition> partitions) {
    partitions.forEach(trackers::remove);
  }
}
