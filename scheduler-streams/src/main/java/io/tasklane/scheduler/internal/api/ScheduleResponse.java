package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import io.tasklane.scheduler.internal.schedules.FireRecord;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code GET /api/schedules/{name}}: one schedule (schema {@code Schedule} in {@code openapi.yml})
 * with its definition, its timer, its next {@link ScheduleView#NEXT} fire instants, the waiting
 * fire and its fire history newest first. Times are epoch millis, each with an ISO-8601 UTC twin
 * when set (above 0). The definition's payload is redacted afterwards ({@link Redactor}).
 *
 * @param name the schedule
 * @param version the highest version applied (a definition's or a deletion's)
 * @param deleted whether it was deleted (only its version and history remain)
 * @param defined the definition in force and what follows from it, written in line; absent once
 *     deleted
 * @param nextFireAt the fire its timer waits for, -1 when none (paused, or past its last fire)
 * @param nextFireAtIso the same in ISO-8601 UTC, absent when none
 * @param nextFires the next fire instants in ISO-8601 UTC
 * @param waiting the fire waiting for the running one to finish ({@code overlap: QUEUE})
 * @param fires its fires, newest first
 */
public record ScheduleResponse(
    String name,
    long version,
    boolean deleted,
    @JsonUnwrapped Defined defined,
    long nextFireAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String nextFireAtIso,
    List<String> nextFires,
    @JsonInclude(JsonInclude.Include.NON_NULL) String waiting,
    List<Fire> fires) {

  /**
   * The answer for schedule {@code name} in state {@code s}, whose fires are its whole history;
   * {@code workers}: the handler's live workers as the scheduler last saw them.
   */
  static ScheduleResponse of(String name, ScheduleState s, HandlerWorkers workers) {
    ScheduleDefinition d = s.definition();
    Defined defined = null;
    if (d != null) {
      AllWorkers all =
          d.routing() == ScheduleDefinition.Routing.ALL_WORKERS
              ? new AllWorkers(liveWorkers(workers, d.handler()))
              : null;
      defined = new Defined(WireCodec.mapper().valueToTree(d), d.enabled(), !d.enabled(), all);
    }
    long next = ScheduleView.nextFireAt(s);
    List<FireRecord> newestFirst = new ArrayList<>(s.fires());
    Collections.reverse(newestFirst);
    return new ScheduleResponse(
        name,
        s.version(),
        s.deleted(),
        defined,
        next,
        iso(next),
        ScheduleView.nextFires(s).stream().map(t -> Instant.ofEpochMilli(t).toString()).toList(),
        s.waiting(),
        newestFirst.stream().map(f -> Fire.of(f, true)).toList());
  }

  private static Integer liveWorkers(HandlerWorkers workers, String handler) {
    var live = workers.liveConsumers(handler);
    return live.isPresent() ? live.getAsInt() : null;
  }

  /** ISO-8601 UTC of {@code millis} when set (above 0), else null. */
  static String iso(long millis) {
    return TaskResponse.iso(millis);
  }

  /**
   * The definition in force and what follows from it.
   *
   * @param definition the definition as stored
   * @param enabled whether it fires
   * @param paused whether an operator paused it (not enabled)
   * @param allWorkers the live workers, written in line, for a schedule that runs on all workers;
   *     else absent
   */
  public record Defined(
      JsonNode definition, boolean enabled, boolean paused, @JsonUnwrapped AllWorkers allWorkers) {}

  /**
   * The workers of an {@code ALL_WORKERS} schedule.
   *
   * @param liveWorkers the handler's live workers (the task count of its next fire), null when
   *     unknown
   */
  public record AllWorkers(Integer liveWorkers) {}

  /**
   * One fire (schema {@code ScheduleFire} in {@code openapi.yml}).
   *
   * @param fireId its id
   * @param fireAt the instant it is for
   * @param fireAtIso the same in ISO-8601 UTC, absent when not set
   * @param kind what made it
   * @param outcome where it stands
   * @param reason why it was skipped, misfired, is waiting, or how it failed; absent when none
   * @param parentFire the parent fire of a child fire; else absent
   * @param madeAt when its tasks were made; absent when none were
   * @param madeAtIso the same in ISO-8601 UTC
   * @param latenessMs how late its tasks were made; absent when none were
   * @param tasks its tasks; absent in the schedule list's {@code lastFire}
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Fire(
      String fireId,
      long fireAt,
      String fireAtIso,
      FireRecord.Kind kind,
      FireRecord.Outcome outcome,
      String reason,
      String parentFire,
      Long madeAt,
      String madeAtIso,
      Long latenessMs,
      List<FireTask> tasks) {
    static Fire of(FireRecord f, boolean withTasks) {
      boolean made = f.madeAt() > 0;
      return new Fire(
          f.fireId(),
          f.fireAt(),
          iso(f.fireAt()),
          f.kind(),
          f.outcome(),
          f.reason(),
          f.parentFire(),
          made ? f.madeAt() : null,
          made ? iso(f.madeAt()) : null,
          made ? f.latenessMs() : null,
          withTasks ? f.tasks().stream().map(FireTask::of).toList() : null);
    }
  }

  /**
   * One task of a fire.
   *
   * @param id the task id
   * @param routingKey its routing key, absent when it is the id
   * @param state its terminal state, or {@code RUNNING}
   */
  public record FireTask(
      String id, @JsonInclude(JsonInclude.Include.NON_NULL) String routingKey, String state) {
    static FireTask of(FireRecord.FireTask t) {
      return new FireTask(
          t.id(),
          t.routingKey().equals(t.id()) ? null : t.routingKey(),
          t.state() == null ? "RUNNING" : t.state().name());
    }
  }
}
