package io.tasklane.scheduler.internal.schedules;

import io.tasklane.scheduler.internal.lifecycle.DispatchPartitioner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Routing keys that spread a fire's shard tasks over the handler topic's partitions. A task's
 * handler partition follows from its routing key and id ({@link DispatchPartitioner}): the routing
 * key picks the scheduler partition {@code p}, the id one of the handler partitions {@code q ≡ p
 * (mod P)}. Random ids put several of N shards on one partition (one worker) even when N ≤ the
 * partition count. Here each shard's candidate keys are {@code <task id>.<salt>} (salt 0, 1, …),
 * which reach one handler partition per scheduler partition; the shards of each round of H (handler
 * partitions) are matched to distinct partitions (augmenting paths, so a shard whose id allows only
 * some partitions still gets one), so N shards land on N distinct partitions when N ≤ H.
 * Deterministic for given ids and partition counts, so a replayed fire derives the same keys. Pure;
 * at most {@code 8·max(P, H)} hashes per shard.
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
    List<String> keys = new ArrayList<>(ids.size());
    for (int from = 0; from < ids.size(); from += handlerPartitions) {
      List<String> round = ids.subList(from, Math.min(ids.size(), from + handlerPartitions));
      List<Map<Integer, String>> options = new ArrayList<>(round.size());
      for (String id : round) {
        Map<Integer, String> reach = new LinkedHashMap<>();
        for (int salt = 0; salt < tries && reach.size() < handlerPartitions; salt++) {
          String key = id + "." + salt;
          reach.putIfAbsent(partitioner.partition(key, id, handlerPartitions), key);
        }
        options.add(reach);
      }
      keys.addAll(match(round, options, handlerPartitions));
    }
    return keys;
  }

  /** Kuhn's matching of shards to partitions; an unmatched shard keeps its salt-0 key. */
  private static List<String> match(
      List<String> ids, List<Map<Integer, String>> options, int partitions) {
    int[] owner = new int[partitions];
    Arrays.fill(owner, -1);
    for (int shard = 0; shard < ids.size(); shard++) {
      augment(shard, options, owner, new boolean[partitions]);
    }
    String[] chosen = new String[ids.size()];
    for (int q = 0; q < partitions; q++) {
      if (owner[q] >= 0) {
        chosen[owner[q]] = options.get(owner[q]).get(q);
      }
    }
    List<String> out = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      out.add(chosen[i] != null ? chosen[i] : ids.get(i) + ".0");
    }
    return out;
  }

  private static boolean augment(
      int shard, List<Map<Integer, String>> options, int[] owner, boolean[] seen) {
    for (int q : options.get(shard).keySet()) {
      if (seen[q]) {
        continue;
      }
      seen[q] = true;
      if (owner[q] < 0 || augment(owner[q], options, owner, seen)) {
        owner[q] = shard;
        return true;
      }
    }
    return false;
  }
}
