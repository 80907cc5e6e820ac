package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.scheduler.internal.Driver;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class DispatchPartitionerTest {
  private final Random random = new Random(7);

  /** The partition Kafka's producer gives a record keyed by {@code key}, as the relay sends it. */
  private static int kafkaPartition(String key, int partitions) {
    return BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), partitions);
  }

  /** Task ids from a seeded generator: the test sees the same ids every run. */
  private String id() {
    return new UUID(random.nextLong(), random.nextLong()).toString();
  }

  @Test
  void sameCountsMapEachSchedulerPartitionToItsOwnHandlerPartition() {
    DispatchPartitioner partitioner = new DispatchPartitioner(6);
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      String routingKey = "order-" + random.nextInt(1_000_000);
      int q = partitioner.partition(routingKey, id(), 6);
      assertThat(q).isEqualTo(kafkaPartition(routingKey, 6));
      seen.add(q);
    }
    assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
  }

  @Test
  void moreHandlerPartitionsAreSharedByTaskIdAmongTheSchedulerPartitionsOwnOnes() {
    DispatchPartitioner partitioner = new DispatchPartitioner(6);
    String routingKey = "tenant-42";
    int p = kafkaPartition(routingKey, 6);
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      seen.add(partitioner.partition(routingKey, id(), 12));
    }
    assertThat(seen).containsExactlyInAnyOrder(p, p + 6);
    String id = id();
    assertThat(partitioner.partition(routingKey, id, 12))
        .as("stable for one task")
        .isEqualTo(partitioner.partition(routingKey, id, 12));
  }

  @Test
  void tasksRoutedByTheirIdSpreadOverEveryOwnHandlerPartition() {
    for (int[] counts : new int[][] {{6, 12}, {4, 8}, {6, 18}, {3, 12}, {6, 9}}) {
      DispatchPartitioner partitioner = new DispatchPartitioner(counts[0]);
      Set<Integer> seen = new HashSet<>();
      for (int i = 0; i < 2_000; i++) {
        String id = id();
        seen.add(partitioner.partition(id, id, counts[1]));
      }
      assertThat(seen)
          .as("P=%d H=%d, routing key = task id", counts[0], counts[1])
          .hasSize(counts[1]);
    }
  }

  @Test
  void fewerHandlerPartitionsWrapAround() {
    DispatchPartitioner partitioner = new DispatchPartitioner(6);
    for (int i = 0; i < 500; i++) {
      String routingKey = id();
      assertThat(partitioner.partition(routingKey, routingKey, 4))
          .isEqualTo(kafkaPartition(routingKey, 6) % 4);
    }
  }

  @Test
  void everyPartitionIsInRangeAndServesItsSchedulerPartition() {
    for (int schedulerPartitions = 1; schedulerPartitions <= 13; schedulerPartitions++) {
      DispatchPartitioner partitioner = new DispatchPartitioner(schedulerPartitions);
      for (int handlerPartitions = 1; handlerPartitions <= 30; handlerPartitions++) {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
          String routingKey = id();
          int q = partitioner.partition(routingKey, id(), handlerPartitions);
          int p = kafkaPartition(routingKey, schedulerPartitions);
          assertThat(q).isBetween(0, handlerPartitions - 1);
          assertThat(handlerPartitions > p ? q % schedulerPartitions : q)
              .isEqualTo(handlerPartitions > p ? p : p % handlerPartitions);
          seen.add(q);
        }
        assertThat(seen)
            .as("P=%d H=%d: all handler partitions used", schedulerPartitions, handlerPartitions)
            .hasSize(handlerPartitions);
      }
    }
  }

  @Test
  void unknownSchedulerPartitionsKeepKafkasDefault() {
    Dispatch d = Dispatch.of(Driver.task(Driver.T0), 1, Driver.T0 + 1_000, Driver.T0);
    assertThat(new DispatchPartitioner(0).partitions("t", d.id(), d, 6)).isEmpty();
    assertThat(new DispatchPartitioner(6).partitions("t", "k", "not a dispatch", 6)).isEmpty();
    assertThat(new DispatchPartitioner(6).partitions("t", d.id(), d, 6))
        .isEqualTo(Optional.of(Set.of(kafkaPartition(d.routingKey(), 6))));
  }
}
