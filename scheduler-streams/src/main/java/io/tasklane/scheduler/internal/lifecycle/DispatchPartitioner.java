package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.Dispatch;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Picks the handler-topic partition of a dispatch so that every scheduler partition has handler
 * partitions of its own: scheduler partition {@code p} (where the task's routing key lives, by
 * Kafka's default key hashing over {@code schedulerPartitions}) sends to the handler partitions
 * {@code q} with {@code q mod schedulerPartitions == p}, spread among them by task id (the id's
 * hash divided by the scheduler's partition count, which is independent of {@code p}); when the
 * handler topic has fewer partitions, to {@code p mod handlerPartitions}. A flow-control window
 * (per scheduler partition) then waits only on the workers that own its partitions: a hung worker
 * holds up the windows of its own partitions, not every window. Kafka's partitioning by task id
 * does the same only for tasks routed by id into a multiple of the scheduler's partition count;
 * ordering keys would spread every window over every partition. Called on the stream thread; pure.
 */
public final class DispatchPartitioner implements StreamPartitioner<String, Object> {
  private final int schedulerPartitions;

  /**
   * @param schedulerPartitions the partition count of {@code tasks}; 0 when unknown, which keeps
   *     Kafka's default partitioning (by task id)
   */
  public DispatchPartitioner(int schedulerPartitions) {
    this.schedulerPartitions = schedulerPartitions;
  }

  @Override
  public Optional<Set<Integer>> partitions(
      String topic, String key, Object value, int handlerPartitions) {
    if (schedulerPartitions <= 0 || !(value instanceof Dispatch d) || d.routingKey() == null) {
      return Optional.empty();
    }
    return Optional.of(Set.of(partition(d.routingKey(), d.id(), handlerPartitions)));
  }

  /** The handler partition of a task with {@code routingKey} and {@code taskId}. */
  public int partition(String routingKey, String taskId, int handlerPartitions) {
    int p = hash(routingKey) % schedulerPartitions;
    if (handlerPartitions <= p) {
      return p % handlerPartitions;
    }
    int own = (handlerPartitions - 1 - p) / schedulerPartitions + 1; // q = p, p+P, p+2P, ... < H
    // the quotient, not the hash: for a task routed by its id (or a fire's id placed in its
    // schedule's partition) hash % P is p, so hash % own would pick one partition only whenever
    // own and P share a factor (P = 6, H = 12: every task of p on the same one of its two)
    int pick = taskId == null ? 0 : (hash(taskId) / schedulerPartitions) % own;
    return p + pick * schedulerPartitions;
  }

  /** Kafka's default key hash (murmur2 of the UTF-8 key, made positive). */
  private static int hash(String key) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8)));
  }
}
