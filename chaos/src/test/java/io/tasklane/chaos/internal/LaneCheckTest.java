package io.tasklane.chaos.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.chaos.internal.LaneCheck.LaneTask;
import io.tasklane.chaos.internal.LaneCheck.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaneCheckTest {
  private static final List<LaneTask> TASKS =
      List.of(
          new LaneTask("a0", "order-1", 0),
          new LaneTask("a1", "order-1", 1),
          new LaneTask("a2", "order-1", 2),
          new LaneTask("b0", "order-2", 0));

  private static Run run(
      String task, long seq, int attempt, long pid, long start, Long end, String outcome) {
    String lane = task.startsWith("a") ? "order-1" : "order-2";
    return new Run(
        task + "/" + attempt + "/" + start, task, lane, seq, attempt, pid, start, end, outcome);
  }

  /** One after another, a failed attempt holding its lane, a killed run, a duplicate run. */
  private static List<Run> clean() {
    List<Run> runs = new ArrayList<>();
    runs.add(run("a0", 0, 1, 7, 100, 150L, "failed"));
    runs.add(run("a0", 0, 2, 7, 700, 760L, "effect"));
    // a1's first run was cut by the kill -9 of pid 7 at 900; its redelivery ran on pid 8
    runs.add(run("a1", 1, 1, 7, 800, null, null));
    runs.add(run("a1", 1, 1, 8, 20_000, 20_050L, "effect"));
    // a duplicate run of a1 overlapping its own first run: not an overlap of two tasks
    runs.add(run("a1", 1, 1, 9, 20_010, 20_060L, "already"));
    runs.add(run("a2", 2, 1, 8, 20_100, 20_200L, "effect"));
    // another lane at the same time
    runs.add(run("b0", 0, 1, 8, 120, 130L, "effect"));
    return runs;
  }

  @Test
  void aCleanHistoryPasses() {
    LaneCheck.Result r = LaneCheck.check(TASKS, clean(), Map.of(7L, 900L));
    assertThat(r.evidence()).isEmpty();
    assertThat(r.orderedTasks()).isEqualTo(4);
    assertThat(r.orderViolations()).isZero();
    assertThat(r.overlaps()).isZero();
    assertThat(r.runs()).isEqualTo(7);
    assertThat(r.cutRuns()).isEqualTo(1);
    assertThat(r.openRuns()).isZero();
  }

  @Test
  void aRunStartedBeforeItsPredecessorsEffectIsAnOrderViolation() {
    List<Run> runs = clean();
    // a2 started once more, before a1's effect (20_050) was committed
    runs.add(run("a2", 2, 1, 9, 20_040, 20_045L, "failed"));
    LaneCheck.Result r = LaneCheck.check(TASKS, runs, Map.of(7L, 900L));
    assertThat(r.orderViolations()).isEqualTo(1);
    assertThat(r.evidence()).anyMatch(e -> e.startsWith("order in lane order-1: task a2 (seq 2)"));
  }

  @Test
  void anEffectBeforeItsPredecessorsIsAnOrderViolation() {
    List<Run> runs = clean();
    runs.removeIf(x -> x.taskId().equals("a2"));
    runs.add(run("a2", 2, 1, 8, 500, 600L, "effect"));
    LaneCheck.Result r = LaneCheck.check(TASKS, runs, Map.of(7L, 900L));
    assertThat(r.orderViolations()).isEqualTo(1);
  }

  @Test
  void twoTasksOfALaneRunningAtOnceAreAnOverlap() {
    List<Run> runs = clean();
    runs.removeIf(x -> x.taskId().equals("a2"));
    // a2 runs from 20_040 to 20_300, while a1's effect run (20_000 – 20_050) is still going; its
    // start is also before a1's effect
    runs.add(run("a2", 2, 1, 9, 20_040, 20_300L, "effect"));
    LaneCheck.Result r = LaneCheck.check(TASKS, runs, Map.of(7L, 900L));
    // with a1's own run and with a1's duplicate run (20_010 – 20_060)
    assertThat(r.overlaps()).isEqualTo(2);
    assertThat(r.evidence()).anyMatch(e -> e.startsWith("overlap in lane order-1: task a1"));
  }

  @Test
  void aRunWithoutEndLastsUntilItsWorkerDied() {
    List<Run> runs = clean();
    // a run of a2 that the kill -9 of pid 7 (at 900) cut at once; b0 ran meanwhile in its own lane
    runs.add(run("a2", 2, 1, 7, 850, null, null));
    LaneCheck.Result died = LaneCheck.check(TASKS, runs, Map.of(7L, 900L));
    // it overlaps a1's run cut by the same kill (800 – 900), and starts before a1's effect
    assertThat(died.overlaps()).isEqualTo(1);
    assertThat(died.orderViolations()).isEqualTo(1);
    // with no known death and no later run of its task, a run is open: checked by its start only
    List<Run> open = clean();
    open.add(run("b0", 0, 1, 5, 125, null, null));
    LaneCheck.Result r = LaneCheck.check(TASKS, open, Map.of(7L, 900L));
    assertThat(r.openRuns()).isEqualTo(1);
    assertThat(r.overlaps()).isZero();
  }

  @Test
  void aTaskThatTookEffectPastALostPredecessorIsAViolation() {
    List<Run> runs = clean();
    runs.removeIf(x -> x.taskId().equals("a1") && x.effect());
    LaneCheck.Result r = LaneCheck.check(TASKS, runs, Map.of(7L, 900L));
    assertThat(r.orderViolations()).isEqualTo(1);
  }
}
