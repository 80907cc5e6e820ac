package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.Topics;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.RecordSender;
import io.tasklane.scheduler.internal.schedules.FireHorizon;
import io.tasklane.scheduler.internal.schedules.Fires;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Schedule operations of the HTTP API (define, pause, resume, delete). Each becomes the record the
 * scheduler already applies, keyed by the schedule's name on {@code <ns>.tasks}: a {@link
 * ScheduleDefinition} (pause and resume are the stored definition with {@code enabled} false or
 * true and a higher version) or an {@link Unschedule}, with the version rule of the other ways to
 * define (a version never overwrites a higher one). Then it polls the schedule's status ({@link
 * ScheduleQuery}, forwarded to the owner) until the stored version reaches the one sent: {@code
 * applied} when it is ours, {@code ignored} when a newer one won; {@code pending} when the wait
 * bound passed first ({@link ScheduleActionResponse}). Every operation is recorded by {@link
 * AuditLog}. Called on Micronaut's blocking executor; thread-safe.
 */
@Singleton
@Internal
public final class ScheduleCommands {
  /** The wait for the outcome when none is asked for. */
  static final long DEFAULT_WAIT_MS = 5_000;

  /** The longest wait for the outcome. */
  static final long MAX_WAIT_MS = 30_000;

  private static final ScheduleValidator VALIDATOR = new ScheduleValidator(TaskLimits.DEFAULT);
  private static final long POLL_MS = 100;

  private final ScheduleQuery query;
  private final RecordSender sender;
  private final Topics topics;
  private final AuditLog audit;
  private final Clock clock;

  @Inject
  ScheduleCommands(ScheduleQuery query, RecordSender sender, Topics topics, AuditLog audit) {
    this(query, sender, topics, audit, Clock.systemUTC());
  }

  ScheduleCommands(
      ScheduleQuery query, RecordSender sender, Topics topics, AuditLog audit, Clock clock) {
    this.query = query;
    this.sender = sender;
    this.topics = topics;
    this.audit = audit;
    this.clock = clock;
  }

  /** An operation refused before anything was sent: an HTTP status, an error code, a message. */
  static final class Refused extends RuntimeException {
    final int status;
    final String code;

    Refused(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  /**
   * {@code PUT /api/schedules/{name}}: the definition in {@code body} (the record's JSON; {@code
   * type}, {@code v} and {@code name} may be left out), validated as the scheduler validates it
   * (the cron parsed too). Its version is the body's when at least 1, else {@code max(now, stored
   * version + 1)}; its origin is {@code api:<actor>}. The answer carries {@code warnings} when the
   * schedule's fires end early ({@link FireHorizon}).
   */
  ScheduleActionResponse define(String name, String body, String actor, long waitMs) {
    ScheduleDefinition given = parse(name, body).toBuilder().origin("api:" + actor).build();
    Fires fires;
    try {
      VALIDATOR.validate(given, WireCodec.encode(given).length + 20); // room for a version
      fires = new Fires(given);
    } catch (InvalidTaskException e) {
      throw new Refused(400, "invalid", e.getMessage());
    }
    List<String> warnings = FireHorizon.warnings(given, fires, clock.millis());
    JsonNode stored = stored(name, false);
    long version = given.version() >= 1 ? given.version() : nextVersion(stored);
    ScheduleDefinition d = given.toBuilder().version(version).build();
    if (stored != null && stored.path("version").asLong() >= version) {
      return ignored(
              "define",
              name,
              actor,
              "version "
                  + version
                  + " is not higher than the"
                  + " stored version "
                  + stored.path("version").asLong())
          .withWarnings(warnings);
    }
    return send("define", name, actor, version, false, d, waitMs).withWarnings(warnings);
  }

  /** {@code POST /api/schedules/{name}/pause} or {@code /resume}: the stored definition again. */
  ScheduleActionResponse setEnabled(String name, boolean enabled, String actor, long waitMs) {
    String action = enabled ? "resume" : "pause";
    JsonNode stored = stored(name, true);
    ScheduleDefinition current =
        ScheduleRequests.decode((ObjectNode) stored.get("definition").deepCopy());
    if (current.enabled() == enabled) {
      return ignored(action, name, actor, enabled ? "not paused" : "already paused");
    }
    long version = nextVersion(stored);
    ScheduleDefinition d =
        current.toBuilder().enabled(enabled).version(version).origin("api:" + actor).build();
    return send(action, name, actor, version, false, d, waitMs);
  }

  /** {@code DELETE /api/schedules/{name}}: an unschedule of {@code max(now, stored version)}. */
  ScheduleActionResponse delete(String name, String actor, long waitMs) {
    JsonNode stored = stored(name, false);
    if (stored == null) {
      throw new Refused(404, "not-found", "no schedule '" + name + "'");
    }
    if (stored.path("deleted").asBoolean()) {
      return ignored("delete", name, actor, "already deleted");
    }
    long version = Math.max(clock.millis(), stored.path("version").asLong());
    Unschedule u = Unschedule.of(name, version, clock.millis());
    return send("delete", name, actor, version, true, u, waitMs);
  }

  private ScheduleDefinition parse(String name, String body) {
    JsonNode tree;
    try {
      tree = WireCodec.readTree(body == null ? "" : body);
    } catch (WireFormatException e) {
      throw new Refused(400, "invalid-json", "body: " + e.getMessage());
    }
    if (!(tree instanceof ObjectNode o)) {
      throw new Refused(400, "invalid", "body: send the schedule definition as a JSON object");
    }
    if (o.hasNonNull("name") && !o.get("name").asText().equals(name)) {
      throw new Refused(
          400,
          "invalid",
          "name: the body names '" + o.get("name").asText() + "' but the path '" + name + "'");
    }
    o.put("name", name);
    return ScheduleRequests.decode(o);
  }

  /** The schedule's status JSON, or null when unknown; 404 when {@code mustExist} and absent. */
  private JsonNode stored(String name, boolean mustExist) {
    StatusQuery.Answer a = query.find(name, false);
    if (a.status() == 404) {
      if (mustExist) {
        throw new Refused(404, "not-found", "no schedule '" + name + "'");
      }
      return null;
    }
    if (a.status() != 200) {
      throw new Refused(a.status(), "unavailable", ErrorResponse.messageOf(a.json()));
    }
    JsonNode n = WireCodec.readTree(a.json());
    if (mustExist && n.path("deleted").asBoolean()) {
      throw new Refused(404, "not-found", "no schedule '" + name + "' (deleted)");
    }
    return n;
  }

  private long nextVersion(JsonNode stored) {
    return Math.max(clock.millis(), stored == null ? 0 : stored.path("version").asLong() + 1);
  }

  private ScheduleActionResponse send(
      String action,
      String name,
      String actor,
      long version,
      boolean delete,
      TaskTopicRecord record,
      long waitMs) {
    try {
      sender
          .send(new ProducerRecord<>(topics.tasks(), name, WireCodec.encode(record)))
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refused(503, "unavailable", "interrupted");
    } catch (ExecutionException | TimeoutException e) {
      audit.record(actor, action, "schedule/" + name, AuditLog.FAILED, e.toString());
      throw new Refused(503, "unavailable", "could not write the " + action + ": " + e);
    }
    long deadline = clock.millis() + waitMs;
    while (true) {
      JsonNode now;
      try {
        now = stored(name, false);
      } catch (Refused e) {
        now = null; // a rebalance moves the owner: the record is written, keep asking
      }
      long at = now == null ? -1 : now.path("version").asLong();
      if (at >= version) {
        boolean ours = at == version && now.path("deleted").asBoolean() == delete;
        String reason = ours ? null : "superseded by version " + at;
        return outcome(
            action,
            name,
            actor,
            version,
            ours ? ScheduleActionResponse.APPLIED : ScheduleActionResponse.IGNORED,
            reason);
      }
      if (clock.millis() >= deadline) {
        return outcome(action, name, actor, version, ScheduleActionResponse.PENDING, null);
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return outcome(action, name, actor, version, ScheduleActionResponse.PENDING, null);
      }
    }
  }

  private ScheduleActionResponse ignored(String action, String name, String actor, String reason) {
    return outcome(action, name, actor, -1, ScheduleActionResponse.IGNORED, reason);
  }

  private ScheduleActionResponse outcome(
      String action, String name, String actor, long version, String outcome, String reason) {
    audit.record(
        actor,
        action,
        "schedule/" + name,
        outcome,
        "version=" + version + (reason == null ? "" : ", " + reason));
    return ScheduleActionResponse.of(name, action, outcome, reason, version);
  }
}
