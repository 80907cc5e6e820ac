package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskKey;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.RecordSender;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code /api/tasks}: status of one task (viewer; its payload redacted for the caller's role by
 * {@link Redactor}) and operator commands, which are written to {@code <ns>.control} keyed by the
 * task's routing key ({@code ?routingKey=}, default the id), with the caller's token name as {@code
 * actor}, recorded by {@link AuditLog} and answered with their outcome ({@link ActionWait}). Roles:
 * {@link ApiRoles}. Like {@code GET /api/audit}, searches are bounded per instance: at most {@link
 * #SEARCHES} callers' searches run at once (another answers 429), and at most {@link
 * #FORWARDED_SEARCHES} searches forwarded by other instances (another answers 503, which the
 * forwarding instance passes on to its caller).
 */
@Controller("/api/tasks")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class TaskController {
  static final int SEARCHES = 2;
  static final int FORWARDED_SEARCHES = 4;

  /** Callers' searches running on this instance (each fans out to every instance). */
  final Semaphore searches = new Semaphore(SEARCHES);

  /** Other instances' forwarded searches running here; separate, so fan-outs never starve. */
  final Semaphore forwardedSearches = new Semaphore(FORWARDED_SEARCHES);

  private final StatusQuery query;
  private final RecordSender sender;
  private final Topics topics;
  private final AuditLog audit;
  private final Redactor redactor;
  private final TaskSearch search;
  private final Clock clock;
  private final ActionWait waiter;

  TaskController(
      StatusQuery query,
      RecordSender sender,
      Topics topics,
      AuditLog audit,
      Redactor redactor,
      TaskSearch search,
      Optional<Clock> clock) {
    this.query = query;
    this.sender = sender;
    this.topics = topics;
    this.audit = audit;
    this.redactor = redactor;
    this.search = search;
    this.clock = clock.orElse(Clock.systemUTC());
    this.waiter = new ActionWait(query, this.clock);
  }

  /**
   * The status of the keyed task {@code handler} + {@code key} (its id is {@link
   * TaskKey#taskId()}), under {@code routingKey} (default the id), as {@code GET /api/tasks/{id}}
   * answers it; with any other parameter (or none), a search ({@link TaskSearch}).
   */
  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> byKey(
      HttpRequest<?> request,
      @Nullable @QueryValue String handler,
      @Nullable @QueryValue String key,
      @Nullable @QueryValue String routingKey,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    Map<String, List<String>> params = SearchController.params(request);
    if (handler == null
        || key == null
        || !Set.of("handler", "key", "routingKey").containsAll(params.keySet())) {
      return limitedSearch(params, role);
    }
    String id;
    try {
      id = TaskKey.of(handler, key).taskId();
    } catch (InvalidTaskException e) {
      return ApiErrors.json(400, e.getMessage());
    }
    return get(id, routingKey, null, role);
  }

  @Get(value = "/{id}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue Boolean forwarded,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    if (!TaskIds.isValid(id)) {
      return ApiErrors.json(400, "not a task id: a canonical lower-case UUID");
    }
    StatusQuery.Answer a = query.find(id, routingKey, Boolean.TRUE.equals(forwarded));
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.status() == 200 ? redactor.apply(a.json(), role) : a.json());
  }

  @Post(value = "/{id}/cancel", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> cancel(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue String reason,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    String why = reason == null ? "api" : reason;
    return send(
        TaskAction.CANCEL, id, routingKey, wait, actor, CancelCommand.of(id, why, now(), actor));
  }

  @Post(value = "/{id}/retry-dead", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> retryDead(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(
        TaskAction.RETRY_DEAD,
        id,
        routingKey,
        wait,
        actor,
        ControlCommand.RetryDead.of(id, now(), actor));
  }

  @Post(value = "/{id}/trigger", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> trigger(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(
        TaskAction.TRIGGER,
        id,
        routingKey,
        wait,
        actor,
        ControlCommand.Trigger.of(id, now(), actor));
  }

  @Post(value = "/{id}/discard", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> discard(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue String wait,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(
        TaskAction.DISCARD,
        id,
        routingKey,
        wait,
        actor,
        ControlCommand.Discard.of(id, now(), actor));
  }

  /**
   * Writes the command to {@code control} keyed by the routing key, after checking that the task
   * lives under it: a command keyed by the wrong routing key would reach another partition and
   * never find the task (a cancel there would even leave a stray tombstone), so that is a 404 and
   * nothing is written. A command the task's current state makes a no-op is not written either and
   * answers 200 {@code ignored} with the reason ({@link TaskAction#noOp}). Otherwise it waits up to
   * {@code ?wait=} for the change to show ({@link ActionWait}): 200 {@code applied} or {@code
   * ignored}, else 202 {@code pending}. Every attempt is audit-logged with its actor.
   */
  private HttpResponse<String> send(
      TaskAction action,
      String id,
      String routingKey,
      String waitText,
      String actor,
      ControlRecord command) {
    if (!TaskIds.isValid(id)) {
      audit.record(actor, action.path, "task/" + id, AuditLog.REFUSED, "not a task id");
      return ApiErrors.json(400, "not a task id: a canonical lower-case UUID");
    }
    Duration wait;
    try {
      wait = ActionWait.parseWait(waitText);
    } catch (ActionWait.BadWait e) {
      return ApiErrors.json(400, e.getMessage());
    }
    String key = routingKey == null ? id : routingKey;
    String target = "task/" + id;
    StatusQuery.Answer found = query.find(id, routingKey, false);
    if (found.status() != 200) {
      audit.record(
          actor,
          action.path,
          target,
          AuditLog.REFUSED,
          "routingKey=" + key + ", " + found.status() + " " + found.json());
      return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(found.status()))
          .contentType(MediaType.APPLICATION_JSON_TYPE)
          .body(found.json());
    }
    JsonNode before = ActionWait.task(found);
    String noOp = action.noOp(before);
    if (noOp != null) {
      audit.record(actor, action.path, target, "ignored", "routingKey=" + key + ", " + noOp);
      return json(200, TaskActionResponse.of(id, action, TaskActionResponse.IGNORED, noOp, before));
    }
    try {
      sender
          .send(new ProducerRecord<>(topics.control(), key, WireCodec.encode(command)))
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ApiErrors.json(503, "interrupted");
    } catch (Exception e) {
      audit.record(actor, action.path, target, AuditLog.FAILED, "routingKey=" + key + ", " + e);
      return ApiErrors.json(503, "could not write the command: " + e.getMessage());
    }
    audit.record(actor, action.path, target, AuditLog.ACCEPTED, "routingKey=" + key);
    TaskActionResponse answer = waiter.await(action, id, routingKey, before, wait);
    return json(answer.httpStatus(), answer);
  }

  private long now() {
    return clock.millis();
  }

  private HttpResponse<String> limitedSearch(Map<String, List<String>> params, Role role) {
    boolean forwarded = params.getOrDefault(InterInstance.FORWARDED, List.of()).contains("true");
    Semaphore permits = forwarded ? forwardedSearches : searches;
    if (!permits.tryAcquire()) {
      int limit = forwarded ? FORWARDED_SEARCHES : SEARCHES;
      return ApiErrors.json(
          forwarded ? 503 : 429,
          "busy",
          limit
              + (forwarded ? " forwarded" : "")
              + " task searches are running on this instance (the limit); retry in a moment");
    }
    try {
      return SearchController.answer(search.list(params, now(), role));
    } finally {
      permits.release();
    }
  }

  private static HttpResponse<String> json(int status, Object body) {
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(status))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(WireCodec.encodeToString(body));
  }
}
