package io.tasklane.scheduler.internal;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code /api/tasks}: status of one task (viewer) and operator commands, which are written to
 * {@code <ns>.control} keyed by the task's routing key ({@code ?routingKey=}, default the id).
 */
@Controller("/api/tasks")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class TaskController {
  private final StatusQuery query;
  private final SchedulerRuntime runtime;

  TaskController(StatusQuery query, SchedulerRuntime runtime) {
    this.query = query;
    this.runtime = runtime;
  }

  @Get(value = "/{id}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue Boolean forwarded,
      @Nullable @Header(HttpHeaders.AUTHORIZATION) String authorization) {
    if (!TaskIds.isValid(id)) {
      return json(400, Map.of("error", "not a task id: a canonical lower-case UUID"));
    }
    StatusQuery.Answer a =
        query.find(id, routingKey, Boolean.TRUE.equals(forwarded), authorization);
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.json());
  }

  @Post(value = "/{id}/cancel", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> cancel(
      @PathVariable String id,
      @Nullable @QueryValue String routingKey,
      @Nullable @QueryValue String reason) {
    return send(id, routingKey, CancelCommand.of(id, reason == null ? "api" : reason, now()));
  }

  @Post(value = "/{id}/retry-dead", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> retryDead(@PathVariable String id, @Nullable @QueryValue String routingKey) {
    return send(id, routingKey, ControlCommand.RetryDead.of(id, now()));
  }

  @Post(value = "/{id}/trigger", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> trigger(@PathVariable String id, @Nullable @QueryValue String routingKey) {
    return send(id, routingKey, ControlCommand.Trigger.of(id, now()));
  }

  @Post(value = "/{id}/discard", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> discard(@PathVariable String id, @Nullable @QueryValue String routingKey) {
    return send(id, routingKey, ControlCommand.Discard.of(id, now()));
  }

  private HttpResponse<String> send(String id, String routingKey, ControlRecord command) {
    if (!TaskIds.isValid(id)) {
      return json(400, Map.of("error", "not a task id: a canonical lower-case UUID"));
    }
    String key = routingKey == null ? id : routingKey;
    try {
      runtime
          .producer
          .send(new ProducerRecord<>(runtime.topics.control(), key, WireCodec.encode(command)))
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return json(503, Map.of("error", "interrupted"));
    } catch (Exception e) {
      return json(503, Map.of("error", "could not write the command: " + e.getMessage()));
    }
    return json(202, Map.of("id", id, "accepted", WireCodec.mapper().valueToTree(command)));
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
