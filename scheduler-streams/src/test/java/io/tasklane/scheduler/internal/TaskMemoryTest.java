package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TaskState;
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

  @Test
  void onlyDispatchedRecordsAreKeptAndAnyOtherStateDropsTheCopy() {
    TaskMemory memory = new TaskMemory.Registry().of(new TaskId(0, 0));
    TaskRecord pending = withState(TaskState.PENDING);
    TaskRecord dispatched = withState(TaskState.DISPATCHED);

    memory.remember("a", pending);
    assertThat(memory.recent).doesNotContainKey("a");

    memory.remember("a", dispatched);
    assertThat(memory.recent).containsEntry("a", dispatched);

    memory.remember("a", withState(TaskState.SUCCEEDED));
    assertThat(memory.recent).doesNotContainKey("a");

    memory.remember("b", dispatched);
    memory.remember("b", null);
    assertThat(memory.recent).isEmpty();
  }

  private static TaskRecord withState(TaskState state) {
    TaskRecord.Edit e = TaskRecord.empty().edit();
    e.state = state;
    return e.build();
  }
}
