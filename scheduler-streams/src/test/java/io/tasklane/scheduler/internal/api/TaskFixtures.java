package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import io.tasklane.scheduler.internal.lifecycle.Waiter;
import java.util.ArrayList;
import java.util.List;

/** The task records the tests of the API's task answers share, around one instant {@link #T}. */
final class TaskFixtures {
  /** The instant the records' times are set around (2027-01-15T08:00:00Z). */
  static final long T = 1_800_000_000_000L;

  private TaskFixtures() {}

  /** A placeholder: no task yet (it has not arrived), one waiter, a purge timer at {@link #T}. */
  static TaskRecord placeholder() {
    return new TaskRecord(
        null,
        null,
        0,
        0,
        0,
        0,
        0,
        T,
        TimerKind.PURGE,
        null,
        null,
        null,
        null,
        List.of(new Waiter("w-1", "w-1")),
        null,
        T,
        0,
        0,
        null,
        0,
        null);
  }

  /**
   * A task created at {@link #T}, PENDING and never dispatched.
   *
   * @param dueAt when it is due (0: not set)
   * @param timerAt its timer, -1 when none
   * @param timerKind its timer's kind, null when none
   * @param updatedAt its last change
   */
  static TaskRecord pending(long dueAt, long timerAt, TimerKind timerKind, long updatedAt) {
    return new TaskRecord(
        Driver.task(T),
        TaskState.PENDING,
        0,
        0,
        0,
        dueAt,
        0,
        timerAt,
        timerKind,
        null,
        null,
        null,
        null,
        null,
        null,
        updatedAt,
        0,
        0,
        null,
        0,
        null);
  }

  /**
   * A task (key {@code order-42}, ordering key {@code customer-7}) DEAD after 3 attempts, the last
   * failing with {@code Timeout}; finished at {@link #T} + 9 s, purged at {@link #T} + 60 s.
   */
  static TaskRecord dead() {
    return new TaskRecord(
        Driver.task(T + 5_000).toBuilder().key("order-42").orderingKey("customer-7").build(),
        TaskState.DEAD,
        3,
        3,
        0,
        T + 5_000,
        0,
        T + 60_000,
        TimerKind.PURGE,
        new ErrorInfo("Timeout", "too slow", null),
        "max attempts",
        null,
        null,
        null,
        null,
        T + 9_000,
        T + 9_000,
        0,
        null,
        0,
        null);
  }

  /** The field names of {@code n}, in order. */
  static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
