package io.tasklane.scheduler.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TaskIds;
import io.tasklane.scheduler.internal.lifecycle.DispatchPartitioner;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShardKeysTest {
  static List<String> ids(String fire, int n) {
    return IntStream.range(0, n).mapToObj(i -> TaskIds.forScheduleFire(fire, 1_000L, i)).toList();
  }

  static List<Integer> partitions(List<String> ids, List<String> keys, int p, int h) {
    DispatchPartitioner partitioner = new DispatchPartitioner(p);
    return IntStream.range(0, ids.size())
        .mapToObj(i -> partitioner.partition(keys.get(i), ids.get(i), h))
        .toList();
  }

  @Test
  void shardsUpToThePartitionCountLandOnDistinctPartitions() {
    for (int[] ph : new int[][] {{6, 6}, {6, 3}, {6, 12}, {12, 12}, {3, 24}}) {
      int p = ph[0];
      int h = ph[1];
      int n = Math.min(p, h);
      for (String fire : List.of("a", "b", "c", "d")) {
        List<String> ids = ids(fire, n);
        List<String> keys = ShardKeys.spread(ids, p, h);
        assertThat(partitions(ids, keys, p, h))
            .as("P=%d H=%d fire %s", p, h, fire)
            .doesNotHaveDuplicates();
        assertThat(ShardKeys.spread(ids, p, h)).as("deterministic").isEqualTo(keys);
      }
    }
  }

  @Test
  void moreShardsThanPartitionsFillEveryPartitionBeforeReusingOne() {
    List<String> ids = ids("many", 18);
    List<String> keys = ShardKeys.spread(ids, 6, 6);
    assertThat(partitions(ids.subList(0, 6), keys.subList(0, 6), 6, 6)).doesNotHaveDuplicates();
    assertThat(partitions(ids.subList(6, 12), keys.subList(6, 12), 6, 6)).doesNotHaveDuplicates();
  }

  @Test
  void unknownPartitionCountsKeepTheIds() {
    List<String> ids = ids("x", 3);
    assertThat(ShardKeys.spread(ids, 0, 6)).isEqualTo(ids);
    assertThat(ShardKeys.spread(ids, 6, 0)).isEqualTo(ids);
  }
}
