package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionTrackerTest {

  @Test
  void commitsOnlyUpToTheLowestUnacknowledgedOffset() {
    PartitionTracker t = new PartitionTracker();
    t.started(10);
    t.started(11);
    t.started(12);
    assertThat(t.commitPosition()).isEqualTo(10); // nothing done yet: position stays at 10

    t.completed(11);
    t.completed(12);
    assertThat(t.commitPosition()).isEqualTo(10); // 10 still running

    t.committed(10);
    assertThat(t.commitPosition()).isEqualTo(-1); // nothing new

    t.completed(10);
    assertThat(t.commitPosition()).isEqualTo(13);
    t.committed(13);
    assertThat(t.commitPosition()).isEqualTo(-1);
    assertThat(t.idle()).isTrue();
  }
}
