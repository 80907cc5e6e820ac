package io.tasklane.scheduler.internal;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
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
import io.tasklane.core.WireCodec;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/tasks}: status of one task (viewer) and operator commands, which are written to
 * {@code <ns>.control} keyed by the task's routing key ({@code ?routingKey=}, default the id), with
 * the caller's token name as {@code actor}, and audit-logged ({@code io.tasklane.scheduler.audit}).
 */
@Controller("/api/tasks")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class TaskController {
  /** Operator commands, one line each with the actor (the API token's name). */
  private static final Logger AUDIT = LoggerFactory.getLogger("io.tasklane.scheduler.audit");

  private final StatusQuery query;
  private final SchedulerRuntime runtime;

  TaskController(StatusQuery query, SchedulerRuntime runtime) {
    this.query = query;
    this.runtime = runtime;
  }

  /**
   * The status of the keyed task {@code handler} + {@code key} (its id is {@link
   * TaskKey#taskId()}), under {@code routingKey} (default the id), as {@code GET /api/tasks/{id}}
   * answers it.
   */
  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> byKey(
      @Nullable @QueryValue String handler,
      @Nullable @QueryValue String key,
      @Nullable @QueryValue String routingKey) {
    if (handler == null || key == null) {
      return json(
          400,
          Map.of(
              "error",
              "send ?handler=<handler>&key=<idempotency key> (the pair the task was enqueued with)"
                  + " or GET /api/tasks/{id}"));
    }
    String id;
    try {
      id = TaskKey.of(handler, key).taskId();
    } catch (InvalidTaskException e) {
      return json(400, Map.of("error", e.getMessage()));
    }
    return get(id, routingKey, null);
  }

  @Get(value = "/{id}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue Boolean forwarded) {
    if (!TaskIds.isValid(id)) {
      return json(400, Map.of("error", "not a task id: a canonical lower-case UUID"));
    }
    StatusQuery.Answer a = query.find(id, routingKey, Boolean.TRUE.equals(forwarded));
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.json());
  }

  @Post(value = "/{id}/cancel", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> cancel(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue String reason,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(
        id, routingKey, actor, CancelCommand.of(id, reason == null ? "api" : reason, now(), actor));
  }

  @Post(value = "/{id}/retry-dead", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> retryDead(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(id, routingKey, actor, ControlCommand.RetryDead.of(id, now(), actor));
  }

  @Post(value = "/{id}/trigger", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> trigger(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(id, routingKey, actor, ControlCommand.Trigger.of(id, now(), actor));
  }

  @Post(value = "/{id}/discard", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> discard(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return send(id, routingKey, actor, ControlCommand.Discard.of(id, now(), actor));
  }

  /**
   * Writes {@code command} to {@code control} keyed by the routing key, after checking that the
   * task lives under it: a command keyed by the wrong routing key would reach another partition and
   * never find the task (a cancel there would even leave a stray tombstone), so that is a 404 and
   * nothing is written. Every attempt is audit-logged with its actor.
   */
  private HttpResponse<String> send(
      String id, String routingKey, String actor, ControlRecord command) {
    String type = command.getClass().getSimpleName();
    if (!TaskIds.isValid(id)) {
      AUDIT.info("actor={} command={} task={} refused: not a task id", actor, type, abbreviate(id));
      return json(400, Map.of("error", "not a task id: a canonical lower-case UUID"));
    }
    String key = routingKey == null ? id : routingKey;
    StatusQuery.Answer found = query.find(id, routingKey, false);
    if (found.status() != 200) {
      AUDIT.info(
          "actor={} command={} task={} routingKey={} refused: {} {}",
          actor,
          type,
          id,
          key,
          found.status(),
          found.json());
      return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(found.status()))
          .contentType(MediaType.APPLICATION_JSON_TYPE)
          .body(found.json());
    }
    try {
      runtime
          .producer
          .send(new ProducerRecord<>(runtime.topics.control(), key, WireCodec.encode(command)))
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return json(503, Map.of("error", "interrupted"));
    } catch (Exception e) {
      AUDIT.warn(
          "actor={} command={} task={} routingKey={} failed: {}",
          actor,
          type,
          id,
          key,
          e.toString());
      return json(503, Map.of("error", "could not write the command: " + e.getMessage()));
    }
    AUDIT.info("actor={} command={} task={} routingKey={} accepted", actor, type, id, key);
    return json(202, Map.of("id", id, "accepted", WireCodec.mapper().valueToTree(command)));
  }

  private static String abbreviate(String s) {
    return s == null || s.length() <= 40 ? s : s.substring(0, 40) + "…";
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
