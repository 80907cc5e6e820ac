package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.AttemptEntry;
import io.tasklane.scheduler.internal.lifecycle.RefusedDuplicate;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import io.tasklane.scheduler.internal.lifecycle.Waiter;
import io.tasklane.scheduler.internal.schedules.ScheduleMachine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/tasks/{id}}: one task as the API shows it (schema {@code TaskView} in {@code
 * openapi.yml}): its state, attempts and timers with an ISO-8601 UTC twin next to every time
 * ({@code "dueAt":1767225600000, "dueAtIso":"2026-01-01T00:00:00Z"}; a time of 0 or less, not set,
 * has none), its envelope as enqueued, and, for a schedule's fire, the schedule. Never the store
 * record itself: the current dispatch's nonce, which lets a result settle the attempt, is not here.
 * Empty fields are left out. Payloads are redacted afterwards ({@link Redactor}).
 *
 * @param task the envelope as enqueued, with ISO twins of its times; absent for a placeholder
 * @param state the state; absent for a placeholder (a dependency awaited before it arrived)
 * @param attempt the dispatch number of the current or last attempt
 * @param failures failed attempts since admission or the last retry-dead
 * @param snoozes RETRY_LATER answers so far
 * @param dueAt when the task is due next
 * @param dueAtIso the same in ISO-8601 UTC
 * @param deadline the current attempt's deadline
 * @param deadlineIso the same in ISO-8601 UTC
 * @param timerAt when the task's timer fires, -1 when it has none
 * @param timerAtIso the same in ISO-8601 UTC
 * @param timerKind what the timer does
 * @param lastError the last failure
 * @param reason why the task is DEAD or CANCELLED, in words
 * @param history the last attempts
 * @param waitingOn dependencies not yet succeeded
 * @param waiters tasks waiting for this one
 * @param probes initiators whose dependency-cycle probe this task has passed on
 * @param updatedAt the last change
 * @param updatedAtIso the same in ISO-8601 UTC
 * @param finishedAt when it reached a terminal state
 * @param finishedAtIso the same in ISO-8601 UTC
 * @param duplicatesRefused records with this id and other content that were refused
 * @param lastRefusedDuplicate the last of those
 * @param waitTimedOutAt when its wait timeout passed before its first dispatch
 * @param waitTimedOutAtIso the same in ISO-8601 UTC
 * @param schedule the schedule and fire that made the task, for a schedule's fire
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record TaskResponse(
    JsonNode task,
    TaskState state,
    int attempt,
    int failures,
    int snoozes,
    long dueAt,
    String dueAtIso,
    long deadline,
    String deadlineIso,
    long timerAt,
    String timerAtIso,
    TimerKind timerKind,
    ErrorInfo lastError,
    String reason,
    List<Attempt> history,
    List<String> waitingOn,
    List<WaiterRef> waiters,
    List<String> probes,
    long updatedAt,
    String updatedAtIso,
    long finishedAt,
    String finishedAtIso,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int duplicatesRefused,
    Refused lastRefusedDuplicate,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long waitTimedOutAt,
    String waitTimedOutAtIso,
    Schedule schedule) {

  /** The answer for {@code r}. */
  static TaskResponse of(TaskRecord r) {
    return new TaskResponse(
        r.task() == null ? null : envelope(r.task()),
        r.state(),
        r.attempt(),
        r.failures(),
        r.snoozes(),
        r.dueAt(),
        iso(r.dueAt()),
        r.deadline(),
        iso(r.deadline()),
        r.timerAt(),
        iso(r.timerAt()),
        r.timerKind(),
        r.lastError(),
        r.reason(),
        r.history().stream().map(Attempt::of).toList(),
        r.waitingOn(),
        r.waiters().stream().map(WaiterRef::of).toList(),
        r.probes(),
        r.updatedAt(),
        iso(r.updatedAt()),
        r.finishedAt(),
        iso(r.finishedAt()),
        r.duplicatesRefused(),
        r.lastRefusedDuplicate() == null ? null : Refused.of(r.lastRefusedDuplicate()),
        r.waitTimedOutAt(),
        iso(r.waitTimedOutAt()),
        Schedule.of(r.task()));
  }

  /** ISO-8601 UTC of {@code millis} when set (above 0), else null. */
  static String iso(long millis) {
    return millis > 0 ? Instant.ofEpochMilli(millis).toString() : null;
  }

  /** The envelope's JSON as enqueued, with an ISO twin after each of its times. */
  private static JsonNode envelope(TaskEnvelope task) {
    JsonNode tree = WireCodec.mapper().valueToTree(task);
    addIso(tree);
    return tree;
  }

  private static void addIso(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      o.fields().forEachRemaining(fields::add);
      Map<String, JsonNode> withTwins = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> f : fields) {
        JsonNode v = f.getValue();
        withTwins.put(f.getKey(), v);
        if (TaskView.TIME_FIELDS.contains(f.getKey()) && v.isIntegralNumber() && v.asLong() > 0) {
          withTwins.put(f.getKey() + "Iso", TextNode.valueOf(iso(v.asLong())));
        } else if (!"payload".equals(f.getKey())) {
          addIso(v); // the handler's payload is the application's, left as it is
        }
      }
      o.removeAll();
      o.setAll(withTwins);
    } else if (node.isArray()) {
      node.forEach(TaskResponse::addIso);
    }
  }

  /**
   * One attempt.
   *
   * @param attempt its number
   * @param dispatchedAt when it was dispatched
   * @param dispatchedAtIso the same in ISO-8601 UTC
   * @param endedAt when its result came, 0 while it runs
   * @param endedAtIso the same in ISO-8601 UTC
   * @param outcome how it ended
   * @param error its error message
   * @param worker the worker that ran it
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Attempt(
      int attempt,
      long dispatchedAt,
      String dispatchedAtIso,
      long endedAt,
      String endedAtIso,
      String outcome,
      String error,
      String worker) {
    static Attempt of(AttemptEntry a) {
      return new Attempt(
          a.attempt(),
          a.dispatchedAt(),
          iso(a.dispatchedAt()),
          a.endedAt(),
          iso(a.endedAt()),
          a.outcome(),
          a.error(),
          a.worker());
    }
  }

  /**
   * A task waiting for this one.
   *
   * @param id its id
   * @param routingKey its routing key
   */
  public record WaiterRef(String id, String routingKey) {
    static WaiterRef of(Waiter w) {
      return new WaiterRef(w.id(), w.routingKey());
    }
  }

  /**
   * A refused record with this task's id and other content.
   *
   * @param refusedAt when it was refused
   * @param refusedAtIso the same in ISO-8601 UTC
   * @param createdAt its creation time
   * @param createdAtIso the same in ISO-8601 UTC
   * @param source the outbox row it came from
   * @param handler its handler
   * @param dueAt its due time
   * @param dueAtIso the same in ISO-8601 UTC
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Refused(
      long refusedAt,
      String refusedAtIso,
      long createdAt,
      String createdAtIso,
      Source source,
      String handler,
      long dueAt,
      String dueAtIso) {
    static Refused of(RefusedDuplicate d) {
      return new Refused(
          d.refusedAt(),
          iso(d.refusedAt()),
          d.createdAt(),
          iso(d.createdAt()),
          d.source(),
          d.handler(),
          d.dueAt(),
          iso(d.dueAt()));
    }
  }

  /**
   * The schedule whose fire made the task.
   *
   * @param name the schedule
   * @param fireId the fire
   */
  public record Schedule(String name, String fireId) {
    static Schedule of(TaskEnvelope task) {
      Map<String, String> h = task == null ? Map.of() : task.headers();
      return h.containsKey(ScheduleMachine.HEADER_SCHEDULE)
          ? new Schedule(
              h.get(ScheduleMachine.HEADER_SCHEDULE), h.get(ScheduleMachine.HEADER_FIRE_ID))
          : null;
    }
  }
}
