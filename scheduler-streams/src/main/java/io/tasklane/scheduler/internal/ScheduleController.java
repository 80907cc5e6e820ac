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
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.WireCodec;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/schedules}: the status of one schedule with its fire history and next fires (viewer;
 * forwarded to the instance owning the name's partition, as task status is) and trigger-now
 * (operator), which writes a {@link ScheduleTrigger} to {@code <ns>.tasks} keyed by the name and is
 * audit-logged ({@code io.tasklane.scheduler.audit}). Tokens and roles: {@link TokenFilter}.
 */
@Controller("/api/schedules")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class ScheduleController {
  private static final Logger AUDIT = LoggerFactory.getLogger("io.tasklane.scheduler.audit");
  private static final ScheduleValidator VALIDATOR = new ScheduleValidator(TaskLimits.DEFAULT);

  private final ScheduleQuery query;
  private final SchedulerRuntime runtime;

  ScheduleController(ScheduleQuery query, SchedulerRuntime runtime) {
    this.query = query;
    this.runtime = runtime;
  }

  @Get(value = "/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(@PathVariable String name, @Nullable @QueryValue Boolean forwarded) {
    if (!ScheduleValidator.NAME.matcher(name).matches()) {
      return json(400, Map.of("error", "not a schedule name: " + ScheduleValidator.NAME.pattern()));
    }
    StatusQuery.Answer a = query.find(name, Boolean.TRUE.equals(forwarded));
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.json());
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
      AUDIT.info("actor={} command=trigger schedule={} refused: {}", actor, name, e.getMessage());
      return json(400, Map.of("error", e.getMessage()));
    }
    StatusQuery.Answer found = query.find(name, false);
    if (found.status() != 200) {
      AUDIT.info("actor={} command=trigger schedule={} refused: {}", actor, name, found.status());
      return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(found.status()))
          .contentType(MediaType.APPLICATION_JSON_TYPE)
          .body(found.json());
    }
    try {
      runtime
          .producer
          .send(new ProducerRecord<>(runtime.topics.tasks(), name, WireCodec.encode(t)))
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return json(503, Map.of("error", "interrupted"));
    } catch (Exception e) {
      AUDIT.warn("actor={} command=trigger schedule={} failed: {}", actor, name, e.toString());
      return json(503, Map.of("error", "could not write the trigger: " + e.getMessage()));
    }
    AUDIT.info(
        "actor={} command=trigger schedule={} triggerId={} accepted", actor, name, t.triggerId());
    return json(
        202,
        Map.of("name", name, "triggerId", t.triggerId(), "fireId", t.fireId(), "accepted", true));
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
