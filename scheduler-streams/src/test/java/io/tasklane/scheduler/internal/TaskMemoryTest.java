package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class TaskMemoryTest {
  @Test
  void aStreamTasksMemoryIsSharedUntilDroppedThenDerivedAfresh() {
    TaskMemory.Registry registry = new TaskMemory.Registry();
    TaskId task = new TaskId(0, 1);
    TaskMemory first = registry.of(task);
    first.load.markCounted();
    first.repaired = true;
    first.counts.put("PENDING", 3L);
    for (int i = 0; i <= TaskMemory.RECENT_RECORDS; i++) {
      first.recent.put("t" + i, TaskRecord.empty().edit().build());
    }
    assertThat(first.recent).hasSize(TaskMemory.RECENT_RECORDS).doesNotContainKey("t0");

    assertThat(registry.of(task)).isSameAs(first);
    assertThat(registry.of(new TaskId(0, 2))).isNotSameAs(first);

    registry.drop(task);
    TaskMemory next = registry.of(task);
    assertThat(next).isNotSameAs(first);
    assertThat(next.load.counted()).isFalse();
    assertThat(next.repaired).isFalse();
    assertThat(next.repairedUpTo).isNull();
    assertThat(next.recent).isEmpty();
    assertThat(next.counts).isEmpty();
  }
}
