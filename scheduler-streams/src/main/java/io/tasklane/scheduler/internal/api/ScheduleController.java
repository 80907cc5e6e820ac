package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.RecordSender;
import io.tasklane.scheduler.internal.schedules.SchedulePreview;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code /api/schedules}: the list of schedules (viewer; fanned out over the instances, {@link
 * ScheduleList}), the status of one schedule with its fire history and next fires (viewer;
 * forwarded to the instance owning the name's partition, as task status is; its payload redacted by
 * {@link Redactor}), trigger-now (operator), which writes a {@link ScheduleTrigger} to {@code
 * <ns>.tasks} keyed by the name, and define, pause, resume and delete (admin; {@link
 * ScheduleCommands}), each answering its outcome. Every action is recorded by {@link AuditLog}.
 * {@code /api/schedules/preview} (viewer) computes the next fires of a cron or rate without
 * defining anything ({@link SchedulePreview}). Roles: {@link ApiRoles}.
 */
@Controller("/api/schedules")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class ScheduleController {
  private static final ScheduleValidator VALIDATOR = new ScheduleValidator(TaskLimits.DEFAULT);

  private final ScheduleQuery query;
  private final ScheduleList list;
  private final ScheduleCommands commands;
  private final RecordSender sender;
  private final Topics topics;
  private final AuditLog audit;
  private final Redactor redactor;
  private final SchedulePreview preview = new SchedulePreview(java.time.Clock.systemUTC());

  ScheduleController(
      ScheduleQuery query,
      ScheduleList list,
      ScheduleCommands commands,
      RecordSender sender,
      Topics topics,
      AuditLog audit,
      Redactor redactor) {
    this.query = query;
    this.list = list;
    this.commands = commands;
    this.sender = sender;
    this.topics = topics;
    this.audit = audit;
    this.redactor = redactor;
  }

  /**
   * A page of schedules in name order, from every instance ({@link ScheduleList}): {@code limit} 1
   * to 500 (default 50), {@code cursor} the previous page's {@code nextCursor}.
   */
  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> list(
      @Nullable @QueryValue String cursor,
      @Nullable @QueryValue Integer limit,
      @Nullable @QueryValue Boolean forwarded) {
    int n = limit == null ? ScheduleList.DEFAULT_LIMIT : limit;
    if (n < 1 || n > ScheduleList.MAX_LIMIT) {
      return error(400, "invalid", "limit: " + n + " is outside 1 to " + ScheduleList.MAX_LIMIT);
    }
    if (cursor != null && !ScheduleValidator.NAME.matcher(cursor).matches()) {
      return error(400, "invalid", "cursor: not a schedule name (send the nextCursor of a page)");
    }
    return answer(list.page(cursor, n, Boolean.TRUE.equals(forwarded)));
  }

  /**
   * Defines or replaces schedule {@code name} (admin): the body is its definition JSON; answers the
   * outcome once the scheduler applied it or ignored it, or 202 {@code pending} after {@code wait}
   * (default 5s, at most 30s).
   */
  @Put(value = "/{name}", produces = MediaType.APPLICATION_JSON, consumes = MediaType.ALL)
  HttpResponse<String> define(
      @PathVariable String name,
      @Nullable @Body String body,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return command("define", name, actor, w -> commands.define(name, body, actor, w), wait);
  }

  /** Pauses schedule {@code name} (admin): its fires are recorded as skipped until a resume. */
  @Post(value = "/{name}/pause", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> pause(
      @PathVariable String name,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return command("pause", name, actor, w -> commands.setEnabled(name, false, actor, w), wait);
  }

  /** Resumes schedule {@code name} (admin): fires missed while paused follow its misfire policy. */
  @Post(value = "/{name}/resume", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> resume(
      @PathVariable String name,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return command("resume", name, actor, w -> commands.setEnabled(name, true, actor, w), wait);
  }

  /** Deletes schedule {@code name} (admin) with an unschedule; its fires' tasks stay. */
  @Delete(value = "/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> delete(
      @PathVariable String name,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return command("delete", name, actor, w -> commands.delete(name, actor, w), wait);
  }

  private HttpResponse<String> command(
      String action,
      String name,
      String actor,
      java.util.function.LongFunction<ScheduleActionResponse> run,
      String wait) {
    try {
      if (!ScheduleValidator.NAME.matcher(name).matches()) {
        throw new ScheduleCommands.Refused(
            400, "invalid", "name: not a schedule name: " + ScheduleValidator.NAME.pattern());
      }
      ScheduleActionResponse outcome = run.apply(ScheduleRequests.waitMs(wait));
      return json(outcome.httpStatus(), outcome);
    } catch (ScheduleCommands.Refused e) {
      audit.record(actor, action, "schedule/" + name, AuditLog.REFUSED, e.getMessage());
      return error(e.status, e.code, e.getMessage());
    }
  }

  private static HttpResponse<String> answer(StatusQuery.Answer a) {
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.json());
  }

  private static HttpResponse<String> error(int status, String code, String message) {
    return ApiErrors.json(status, code, message);
  }

  /**
   * The next {@code count} (1 to 50, default 5) fires of {@code cron} or {@code every} in {@code
   * zone} (default UTC) from now, by the scheduler's own parsing and fire rules; nothing is
   * written. A bad field answers 400 {@code {"valid":false,"error":"invalid","field":...}}. Without
   * {@code cron} and {@code every} this is the status of the schedule named {@code preview}.
   */
  @Get(value = "/preview", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> preview(
      @Nullable @QueryValue String cron,
      @Nullable @QueryValue String every,
      @Nullable @QueryValue String zone,
      @Nullable @QueryValue String count,
      @Nullable @QueryValue Boolean forwarded,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    if (cron == null && every == null) {
      return get("preview", forwarded, role);
    }
    try {
      Integer n = null;
      if (count != null) {
        try {
          n = Integer.parseInt(count.trim());
        } catch (NumberFormatException e) {
          throw new InvalidTaskException(
              "count", "'" + abbreviate(count) + "' is not a number from 1 to 50");
        }
      }
      return json(200, SchedulePreviewResponse.of(preview.preview(cron, every, zone, n)));
    } catch (InvalidTaskException e) {
      return json(400, SchedulePreviewResponse.Invalid.of(e));
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }

  @Get(value = "/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(
      @PathVariable String name,
      @Nullable @QueryValue Boolean forwarded,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    if (!ScheduleValidator.NAME.matcher(name).matches()) {
      return ApiErrors.json(400, "not a schedule name: " + ScheduleValidator.NAME.pattern());
    }
    StatusQuery.Answer a = query.find(name, Boolean.TRUE.equals(forwarded));
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.status() == 200 ? redactor.apply(a.json(), role) : a.json());
  }

  /**
   * Fires schedule {@code name} now. {@code triggerId} (default a random UUID) makes the request
   * idempotent: the same id never fires twice. The fire obeys the schedule's overlap policy; the
   * answer is 202 with the fire's id (see its outcome in {@code GET /api/schedules/{name}}).
   */
  @Post(value = "/{name}/trigger", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> trigger(
      @PathVariable String name,
      @Nullable @QueryValue String triggerId,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    ScheduleTrigger t =
        ScheduleTrigger.of(
            name, triggerId == null ? UUID.randomUUID().toString() : triggerId, now());
    try {
      VALIDATOR.validate(t);
    } catch (InvalidTaskException e) {
      audit.record(actor, "trigger", "schedule/" + name, AuditLog.REFUSED, e.getMessage());
      return ApiErrors.json(400, e.getMessage());
    }
    StatusQuery.Answer found = query.find(name, false);
    if (found.status() != 200) {
      audit.record(
          actor, "trigger", "schedule/" + name, AuditLog.REFUSED, String.valueOf(found.status()));
      return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(found.status()))
          .contentType(MediaType.APPLICATION_JSON_TYPE)
          .body(found.json());
    }
    try {
      sender
          .send(new ProducerRecord<>(topics.tasks(), name, WireCodec.encode(t)))
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ApiErrors.json(503, "interrupted");
    } catch (Exception e) {
      audit.record(actor, "trigger", "schedule/" + name, AuditLog.FAILED, e.toString());
      return ApiErrors.json(503, "could not write the trigger: " + e.getMessage());
    }
    audit.record(
        actor, "trigger", "schedule/" + name, AuditLog.ACCEPTED, "triggerId=" + t.triggerId());
    return json(202, ScheduleTriggerResponse.of(name, t));
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  private static HttpResponse<String> json(int status, Object body) {
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(status))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(WireCodec.encodeToString(body));
  }
}
