package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TaskState;
import org.junit.jupiter.api.Test;

class TaskMemoryTest {
  @Test
  void eachOpenGetsAFreshMemoryThatKeepsTheNewestDispatchedRecords() {
    TaskMemory.Shared shared = new TaskMemory.Shared();
    TaskMemory first = shared.open();
    first.load.markCounted();
    first.repaired = true;
    first.counts.put("PENDING", 3L);
    for (int i = 0; i <= TaskMemory.RECENT_RECORDS; i++) {
      first.recent.put("t" + i, TaskRecord.empty().edit().build());
    }
    assertThat(first.recent).hasSize(TaskMemory.RECENT_RECORDS).doesNotContainKey("t0");

    TaskMemory next = shared.open();
    assertThat(next).isNotSameAs(first);
    assertThat(next.load.counted()).isFalse();
    assertThat(next.repaired).isFalse();
    assertThat(next.repairedUpTo).isNull();
    assertThat(next.recent).isEmpty();
    assertThat(next.counts).isEmpty();
  }

  @Test
  void onlyDispatchedRecordsAreKeptAndAnyOtherStateDropsTheCopy() {
    TaskMemory memory = new TaskMemory.Shared().open();
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
