package io.tasklane.scheduler.internal.ops;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.TaskId;

/**
 * How far this instance's standby replicas are behind their changelogs: a standby that is caught up
 * takes over a killed instance's partitions without restoring, so this is what bounds a failover
 * after the session timeout. Kafka Streams calls it on the thread that updates the standbys (the
 * state updater); the gauges read it from any thread. A changelog partition counts from its first
 * update to its suspension (the standby became active, moved away, or closed); its lag is the
 * records after the last batch loaded up to the changelog's end, 0 until a batch was loaded.
 */
public final class StandbyLag implements StandbyUpdateListener {
  private final Map<TopicPartition, Long> lag = new ConcurrentHashMap<>();

  @Override
  public void onUpdateStart(TopicPartition partition, String storeName, long startingOffset) {
    lag.put(partition, 0L);
  }

  @Override
  public void onBatchLoaded(
      TopicPartition partition,
      String storeName,
      TaskId taskId,
      long batchEndOffset,
      long batchSize,
      long currentEndOffset) {
    // Kafka Streams passes the restore consumer's lag after the batch plus the batch's end offset
    lag.put(partition, Math.max(0, currentEndOffset - batchEndOffset));
  }

  @Override
  public void onUpdateSuspended(
      TopicPartition partition,
      String storeName,
      long storeOffset,
      long currentEndOffset,
      SuspendReason reason) {
    lag.remove(partition);
  }

  /** Changelog partitions standbys of this instance are updating. */
  int partitions() {
    return lag.size();
  }

  /** Records they are behind, summed over those partitions. */
  long records() {
    return lag.values().stream().mapToLong(Long::longValue).sum();
  }
}
