package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory deadlines of the attempts out: a set, taken out earliest first. */
class DeadlineTimersTest {
  @Test
  void deadlinesComeOutEarliestFirstAndOnlyWhenDue() {
    DeadlineTimers d = new DeadlineTimers();
    d.add(300, "c");
    d.add(100, "a2");
    d.add(100, "a1");
    d.add(200, "b");
    assertThat(d.size()).isEqualTo(4);
    assertThat(d.due(99, 10)).isEmpty();
    assertThat(ids(d.due(200, 10))).containsExactly("a2", "a1", "b");
    assertThat(d.size()).isEqualTo(1);
    assertThat(ids(d.due(1_000, 10))).containsExactly("c");
    assertThat(d.size()).isZero();
  }

  @Test
  void theSameDeadlineAddedTwiceIsKeptOnceAndARemovedOneNeverComesOut() {
    DeadlineTimers d = new DeadlineTimers();
    d.add(100, "a");
    d.add(100, "a");
    d.add(100, "b");
    d.add(150, "c");
    assertThat(d.size()).isEqualTo(3);
    d.remove(100, "b");
    d.remove(100, "missing");
    d.remove(999, "a");
    assertThat(d.size()).isEqualTo(2);
    List<DueIndex.Entry> due = d.due(1_000, 10);
    assertThat(ids(due)).containsExactly("a", "c");
    assertThat(due.get(0).at()).isEqualTo(100);
    assertThat(due.get(0).kind()).isEqualTo(TimerKind.DEADLINE);
  }

  @Test
  void atMostTheBoundIsTakenAndTheRestStaysForTheNextTick() {
    DeadlineTimers d = new DeadlineTimers();
    for (int i = 0; i < 5; i++) {
      d.add(100, "t" + i);
    }
    d.add(101, "u");
    assertThat(ids(d.due(500, 3))).containsExactly("t0", "t1", "t2");
    assertThat(d.size()).isEqualTo(3);
    assertThat(ids(d.due(500, 3))).containsExactly("t3", "t4", "u");
    assertThat(d.due(500, 3)).isEmpty();
  }

  private static List<String> ids(List<DueIndex.Entry> entries) {
    return entries.stream().map(DueIndex.Entry::taskId).toList();
  }
}
