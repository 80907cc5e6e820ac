package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad-input catalogue: tasks whose dependencies form a cycle (possible with keyed ids, which are
 * known before the task exists). A self-dependency is refused by TaskValidator; a longer cycle is
 * found by the probes {@code await} carries: its tasks go DEAD (one naming the cycle, the others
 * naming it), none is dispatched, and nothing else is held up.
 */
class DependencyCycleTest {
  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = new Driver(dir);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static TaskEnvelope task(String id, long dueAt, List<String> deps) {
    TaskEnvelope t = Driver.task(dueAt, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), deps);
    return t.toBuilder().id(id).build();
  }

  private static TaskEnvelope task(String id, String... deps) {
    return task(id, T0, List.of(deps));
  }

  private static List<String> ids(int n) {
    return IntStream.range(0, n).mapToObj(i -> UUID.randomUUID().toString()).toList();
  }

  /** Member i waits on member i+1, the last on the first. */
  private static List<TaskEnvelope> cycle(List<String> ids) {
    List<TaskEnvelope> tasks = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      tasks.add(task(ids.get(i), ids.get((i + 1) % ids.size())));
    }
    return tasks;
  }

  /** Feeds emitted dependency-protocol records back until none is left; returns the awaits. */
  private List<ControlCommand.Await> settle() {
    List<ControlCommand.Await> awaits = new ArrayList<>();
    for (int round = 0; round < 1_000; round++) {
      List<TestRecord<String, byte[]>> emitted = d.dependenciesOut.readRecordsToList();
      if (emitted.isEmpty()) {
        return awaits;
      }
      for (TestRecord<String, byte[]> r : emitted) {
        if (WireCodec.decodeControl(r.value()) instanceof ControlCommand.Await a) {
          awaits.add(a);
        }
        d.dependencies.pipeInput(new TestRecord<>(r.key(), r.value(), Instant.ofEpochMilli(d.now)));
      }
    }
    throw new AssertionError("dependency records still flowing after 1000 rounds");
  }

  /** Waiters first, settled after each: only the last arrival's await becomes a probe. */
  private void sendOneByOne(List<TaskEnvelope> tasks) {
    for (TaskEnvelope t : tasks) {
      d.send(t);
      settle();
    }
  }

  /** Every member DEAD, never dispatched; at least one names the cycle, the rest name a finder. */
  private void assertCycleFailed(List<String> ids) {
    List<String> rotations = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      List<String> r = new ArrayList<>();
      for (int k = 0; k <= ids.size(); k++) {
        r.add(ids.get((i + k) % ids.size()));
      }
      rotations.add("dependency cycle: " + String.join(" → ", r));
    }
    List<String> finders = new ArrayList<>();
    for (String id : ids) {
      TaskRecord r = d.record(id);
      assertThat(r.state()).as(id).isEqualTo(TaskState.DEAD);
      if (r.lastError().type().equals(CycleProbes.ERROR_TYPE)) {
        assertThat(rotations).as(id).contains(r.reason());
        assertThat(r.reason()).startsWith("dependency cycle: " + id + " → ");
        finders.add(id);
      }
    }
    assertThat(finders).isNotEmpty();
    for (String id : ids) {
      TaskRecord r = d.record(id);
      if (!finders.contains(id)) {
        assertThat(r.lastError().type()).isEqualTo("dependency");
        assertThat(r.reason()).contains("dependency cycle").contains(ids);
        assertThat(finders)
            .anySatisfy(f -> assertThat(r.reason()).contains("dependency " + f + " is DEAD"));
      }
    }
  }

  static Stream<Arguments> arrivalOrders() {
    List<Arguments> cases = new ArrayList<>();
    List<int[]> twos = List.of(new int[] {0, 1}, new int[] {1, 0});
    List<int[]> threes =
        List.of(
            new int[] {0, 1, 2},
            new int[] {0, 2, 1},
            new int[] {1, 0, 2},
            new int[] {1, 2, 0},
            new int[] {2, 0, 1},
            new int[] {2, 1, 0});
    for (boolean settleBetween : new boolean[] {false, true}) {
      for (int[] o : twos) {
        cases.add(Arguments.of(2, o, settleBetween));
      }
      for (int[] o : threes) {
        cases.add(Arguments.of(3, o, settleBetween));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}-cycle, arrival order {1}, control settled between arrivals {2}")
  @MethodSource("arrivalOrders")
  void cycleMembersGoDeadNamingTheCycleWhileAnUnrelatedTaskRuns(
      int size, int[] order, boolean settleBetween) {
    List<String> ids = ids(size);
    List<TaskEnvelope> members = cycle(ids);
    TaskEnvelope bystander = Driver.task(T0);
    d.send(bystander);
    for (int i : order) {
      d.send(members.get(i));
      if (settleBetween) {
        settle();
      }
    }
    settle();

    assertCycleFailed(ids);
    assertThat(d.metrics.get("dependency-cycle")).isPositive();
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(bystander.id());
    d.sendResult(TaskResult.succeeded(bystander.id(), 1, d.now, d.now, "w"));
    assertThat(d.record(bystander.id()).state()).isEqualTo(TaskState.SUCCEEDED);
  }

  @Test
  void aTaskWaitingOnACycleGoesDeadWithIt() {
    List<String> ids = ids(3);
    TaskEnvelope outside = task(UUID.randomUUID().toString(), ids.get(0));
    d.send(outside);
    cycle(ids).forEach(d::send);
    settle();

    assertCycleFailed(ids);
    assertThat(d.record(outside.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(d.record(outside.id()).reason()).contains("dependency " + ids.get(0) + " is DEAD");
    assertThat(d.dispatches()).isEmpty();
  }

  static Stream<Arguments> diamondOrders() {
    return Stream.of(
        Arguments.of("waiters first", false), Arguments.of("dependencies first", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("diamondOrders")
  void aDiamondIsNoCycleAndRunsInDependencyOrder(String label, boolean dependenciesFirst) {
    // A waits on B and C, both wait on D, which waits on E (due later, so D stays WAITING).
    List<String> x = ids(5);
    String a = x.get(0);
    String b = x.get(1);
    String c = x.get(2);
    String dd = x.get(3);
    String e = x.get(4);
    List<TaskEnvelope> tasks =
        new ArrayList<>(
            List.of(
                task(a, b, c),
                task(b, dd),
                task(c, dd),
                task(dd, e),
                task(e, T0 + 10_000, List.of())));
    if (dependenciesFirst) {
      Collections.reverse(tasks);
    }
    List<ControlCommand.Await> awaits = new ArrayList<>();
    for (TaskEnvelope t : tasks) {
      d.send(t);
      awaits.addAll(settle());
    }
    // A's probe reaches D twice (through B and through C) but is passed on to E once.
    long probesOfAAtE =
        awaits.stream()
            .filter(w -> w.id().equals(e) && !w.path().isEmpty() && w.path().get(0).equals(a))
            .count();
    assertThat(probesOfAAtE).isEqualTo(dependenciesFirst ? 1 : 0);

    d.advanceTo(T0 + 10_000);
    List<List<String>> waves = List.of(List.of(e), List.of(dd), List.of(b, c), List.of(a));
    for (List<String> wave : waves) {
      assertThat(d.dispatches()).extracting(Dispatch::id).containsExactlyInAnyOrderElementsOf(wave);
      for (String id : wave) {
        d.sendResult(TaskResult.succeeded(id, 1, d.now, d.now, "w"));
      }
      settle();
    }
    for (String id : x) {
      assertThat(d.record(id).state()).as(id).isEqualTo(TaskState.SUCCEEDED);
    }
    assertThat(d.metrics.get("dependency-cycle")).isZero();
  }

  @Test
  void theLongestDetectableCycleHasOneMoreTaskThanTheProbePathLimit() {
    List<String> ids = ids(ControlCommand.Await.MAX_PROBE_PATH + 1);
    sendOneByOne(cycle(ids));
    assertCycleFailed(ids);
    assertThat(d.metrics.get("dependency-probe.dropped")).isZero();
  }

  @Test
  void aLongerCycleIsNotDetectedAndItsDroppedProbesAreCounted() {
    List<String> ids = ids(ControlCommand.Await.MAX_PROBE_PATH + 2);
    sendOneByOne(cycle(ids));
    for (String id : ids) {
      assertThat(d.record(id).state()).as(id).isEqualTo(TaskState.WAITING);
    }
    assertThat(d.metrics.get("dependency-probe.dropped")).isPositive();
    assertThat(d.metrics.get("dependency-cycle")).isZero();
    assertThat(d.dispatches()).isEmpty();
  }
}
