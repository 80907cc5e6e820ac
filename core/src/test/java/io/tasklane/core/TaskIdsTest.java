package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TaskIdsTest {
  @Test
  void keylessIdsAreUuidV7CarryingTheClockTime() {
    Clock clock = Clock.fixed(Instant.ofEpochMilli(1_767_225_600_123L), ZoneOffset.UTC);
    String id = TaskIds.keyless(clock);
    UUID uuid = UUID.fromString(id);
    assertThat(uuid.version()).isEqualTo(7);
    assertThat(uuid.variant()).isEqualTo(2);
    assertThat(TaskIds.timestampOf(id)).isEqualTo(1_767_225_600_123L);
    assertThat(TaskIds.isValid(id)).isTrue();
  }

  @Test
  void keylessIdsAreUniqueAndSortByTime() {
    var ids = new HashSet<String>();
    for (int i = 0; i < 10_000; i++) {
      ids.add(TaskIds.keyless(Clock.systemUTC()));
    }
    assertThat(ids).hasSize(10_000);
    String early = TaskIds.keyless(Clock.fixed(Instant.ofEpochMilli(1000), ZoneOffset.UTC));
    String late = TaskIds.keyless(Clock.fixed(Instant.ofEpochMilli(2000), ZoneOffset.UTC));
    assertThat(early.compareTo(late)).isNegative();
  }

  @Test
  void keyedIdsAreStableNameBasedAndScopedByHandler() {
    String a = TaskIds.forKey("order.cancel", "order-42");
    assertThat(TaskIds.forKey("order.cancel", "order-42")).isEqualTo(a);
    assertThat(TaskIds.forKey("email.send", "order-42")).isNotEqualTo(a);
    assertThat(TaskIds.forKey("order.cancel", "order-43")).isNotEqualTo(a);
    assertThat(UUID.fromString(a).version()).isEqualTo(5);
    // Golden value: changing the namespace or the name layout would change every keyed id.
    // The same value from Python: uuid.uuid5(NAMESPACE, "key\0order.cancel\0order-42").
    assertThat(a).isEqualTo("9be0cd0e-8259-5c84-9139-8ff7e0c12d79");
  }

  @Test
  void scheduleFireIdsDependOnFireTimeAndShard() {
    String a = TaskIds.forScheduleFire("nightly", 1000, -1);
    assertThat(TaskIds.forScheduleFire("nightly", 1000, -1)).isEqualTo(a);
    assertThat(TaskIds.forScheduleFire("nightly", 2000, -1)).isNotEqualTo(a);
    assertThat(TaskIds.forScheduleFire("nightly", 1000, 0)).isNotEqualTo(a);
  }

  @Test
  void placedFireIdsLandInTheSchedulesPartitionAndStayStable() {
    for (int partitions : new int[] {2, 6, 12, 64}) {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (long at = 0; at < 200_000; at += 1_000) {
        String base = TaskIds.forScheduleFire("nightly", at, -1);
        String placed = TaskIds.inPartitionOf(base, "nightly", partitions);
        assertThat(TaskIds.isValid(placed)).isTrue();
        assertThat(TaskIds.partitionOf(placed, partitions))
            .isEqualTo(TaskIds.partitionOf("nightly", partitions))
            .isEqualTo(
                org.apache.kafka.clients.producer.internals.BuiltInPartitioner.partitionForKey(
                    "nightly".getBytes(java.nio.charset.StandardCharsets.UTF_8), partitions));
        assertThat(TaskIds.inPartitionOf(base, "nightly", partitions)).isEqualTo(placed);
        if (TaskIds.partitionOf(base, partitions) == TaskIds.partitionOf("nightly", partitions)) {
          assertThat(placed).isEqualTo(base);
        } else {
          assertThat(placed.substring(0, 32)).isEqualTo(base.substring(0, 32));
        }
        assertThat(seen.add(placed)).isTrue();
      }
    }
    // Golden value: a placed id that changed between versions would make a fire twice.
    String base = TaskIds.forScheduleFire("nightly", 1767225600000L, -1);
    assertThat(base).isEqualTo("777c5ac5-c5b7-5dbb-b9e8-d3a08613e093");
    assertThat(TaskIds.inPartitionOf(base, "nightly", 6))
        .isEqualTo("777c5ac5-c5b7-5dbb-b9e8-d3a08613001a");
    String one = TaskIds.forScheduleFire("nightly", 1000, -1);
    assertThat(TaskIds.inPartitionOf(one, "nightly", 1)).isEqualTo(one);
    assertThat(TaskIds.inPartitionOf(one, "nightly", 0)).isEqualTo(one);
  }

  @Test
  void invalidIdsAndKeysAreRefusedNamingTheField() {
    assertThat(TaskIds.isValid("not-a-uuid")).isFalse();
    assertThat(TaskIds.isValid("0190F3A2-7B1C-7E4A-9D2B-3C4D5E6F7A8B")).isFalse();
    assertThatThrownBy(() -> TaskIds.check("dependsOn", "nope"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("dependsOn:");
    assertThatThrownBy(() -> TaskIds.forKey("order.cancel", ""))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("key:");
  }

  @Test
  void keysInNfcAndNfdNameTheSameTask() {
    String nfc = "caf\u00e9-42";
    String nfd = "cafe\u0301-42";
    assertThat(nfc).isNotEqualTo(nfd);
    assertThat(TaskIds.forKey("order.cancel", nfd)).isEqualTo(TaskIds.forKey("order.cancel", nfc));
    assertThat(TaskKey.of("order.cancel", nfd).taskId())
        .isEqualTo(TaskIds.forKey("order.cancel", nfc));
  }

  @Test
  void aTaskKeyIsCheckedLikeAnEnqueue() {
    assertThatThrownBy(() -> TaskKey.of("Bad Handler", "k"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("handler:");
    assertThatThrownBy(() -> TaskKey.of("order.cancel", ""))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("key:");
  }
}
