package io.tasklane.scheduler.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Routing keys that spread a fire's shard tasks over the handler topic's partitions. A task's
 * handler partition follows from its routing key and id ({@link DispatchPartitioner}): the routing
 * key picks the scheduler partition {@code p}, the id one of the handler partitions {@code q ≡ p
 * (mod P)}. Random ids would put several of N shards on one partition (and so on one worker) even
 * when N ≤ the partition count; this picks, for each shard in turn, the first routing key {@code
 * <task id>.<salt>} (salt 0, 1, …) whose partition no earlier shard took, so N shards land on N
 * distinct partitions when N ≤ partitions (after every partition has one, the next round starts).
 * Deterministic for given partition counts, so a replayed fire derives the same keys. Pure.
 */
final class ShardKeys {
  private ShardKeys() {}

  /**
   * The routing keys of tasks {@code ids} (one per shard, in order), or the ids themselves when
   * either partition count is unknown (≤ 0).
   */
  static List<String> spread(List<String> ids, int schedulerPartitions, int handlerPartitions) {
    if (schedulerPartitions <= 0 || handlerPartitions <= 0 || ids.size() < 2) {
      return ids;
    }
    DispatchPartitioner partitioner = new DispatchPartitioner(schedulerPartitions);
    int tries = 8 * Math.max(schedulerPartitions, handlerPartitions);
    Set<Integer> taken = new HashSet<>();
    List<String> keys = new ArrayList<>(ids.size());
    for (String id : ids) {
      if (taken.size() == handlerPartitions) {
        taken.clear();
      }
      String chosen = id + ".0";
      for (int salt = 0; salt < tries; salt++) {
        String key = id + "." + salt;
        if (taken.add(partitioner.partition(key, id, handlerPartitions))) {
          chosen = key;
          break;
        }
      }
      keys.add(chosen);
    }
    return keys;
  }
}
