package io.tasklane.outbox;

import io.tasklane.core.BatchPart;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns requests into validated rows of the {@link OutboxRows} contract. Stateless apart from its
 * settings; thread-safe.
 */
final class RowFactory {
  private static final List<String> BATCH_HEADERS =
      List.of(
          ReservedHeaders.BATCH,
          ReservedHeaders.BATCH_CALLBACK,
          ReservedHeaders.BATCH_EVENT,
          ReservedHeaders.BATCH_COUNTS);

  private final OutboxConfig config;
  private final PayloadCodec codec;
  private final Clock clock;
  private final TraceHeaders trace;
  private final TaskValidator validator;
  private final ScheduleValidator schedules;

  /** Most tasks {@code enqueueAll} packs into one row ({@link OutboxConfig#batchRows()}). */
  int batchRows() {
    return config.batchRows();
  }

  RowFactory(OutboxConfig config, PayloadCodec codec, Clock clock, TraceHeaders trace) {
    this.config = config;
    this.codec = codec;
    this.clock = clock;
    this.trace = trace;
    TaskLimits limits = new TaskLimits(config.maxPayloadBytes());
    this.validator = new TaskValidator(limits);
    this.schedules = new ScheduleValidator(limits);
  }

  OutboxRow task(TaskRequest r) {
    return task(r, null);
  }

  /**
   * The TASK row of {@code r}; with {@code batch} non-null, a member of that batch (task header
   * {@link ReservedHeaders#BATCH}), which a request may not set itself.
   */
  OutboxRow task(TaskRequest r, String batch) {
    Built built = envelope(r, batch);
    OutboxRow row = OutboxRows.task(built.envelope(), built.payload());
    // No policy named: the column stays NULL and the reader applies the default.
    return r.backoff() == null ? row.toBuilder().backoff(null).build() : row;
  }

  /**
   * A BATCH_PART row adding {@code members} (task ids) to {@code batch}, or sealing it with its
   * callbacks ({@code seal}; {@code onSuccess} and {@code onComplete} may be null).
   */
  OutboxRow batchPart(
      String batch,
      List<String> members,
      boolean seal,
      TaskRequest onSuccess,
      TaskRequest onComplete) {
    long now = clock.millis();
    String part = TaskIds.keyless(clock);
    BatchPart p =
        seal
            ? BatchPart.seal(
                batch,
                part,
                onSuccess == null ? null : envelope(onSuccess, null).withPayload(),
                onComplete == null ? null : envelope(onComplete, null).withPayload(),
                now)
            : BatchPart.members(batch, part, members, now);
    OutboxRow row = OutboxRows.batchPart(p.validate());
    int bytes = row.payload().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > TaskLimits.MAX_RECORD_BYTES) {
      throw new InvalidTaskException(
          seal ? "onSuccess" : "members",
          "the batch part is " + bytes + " bytes; the limit is " + TaskLimits.MAX_RECORD_BYTES);
    }
    return row;
  }

  /** A validated envelope (without its payload) and its payload as the codec wrote it. */
  private record Built(TaskEnvelope envelope, String payload) {
    TaskEnvelope withPayload() {
      return envelope.toBuilder().payload(WireCodec.readTree(payload)).build();
    }
  }

  /** The validated envelope of {@code r}; a member of {@code batch} if non-null. */
  private Built envelope(TaskRequest r, String batch) {
    HandlerNames.check(r.handler());
    for (String reserved : BATCH_HEADERS) {
      if (r.headers().containsKey(reserved)) {
        throw new InvalidTaskException(
            "headers", reserved + " is set by Tasklane (use TaskOutbox.batch(..) for a batch)");
      }
    }
    if (r.dependsOn().stream().anyMatch(Objects::isNull)) {
      throw new InvalidTaskException("dependsOn", "contains null; name task ids only");
    }
    if (r.unique() != null && r.key() == null) {
      throw new InvalidTaskException(
          "unique",
          "needs the task's key: the window holds per handler and key; set key(..) as well");
    }
    if (r.unique() == null && r.options().uniqueUntil() != null) {
      throw new InvalidTaskException(
          "uniqueUntil", "needs a unique window: use unique(window, until)");
    }
    long now = clock.millis();
    // A unique task gets a new id per window: the key's own id would be refused as a duplicate by
    // a scheduler that still remembers the previous window's task. A batch member is a new task
    // too: under the key's id, an earlier task of the same key (another batch's, or none) would
    // stand in for it and never report to this batch.
    String id =
        r.key() == null || r.unique() != null || batch != null
            ? TaskIds.keyless(clock)
            : TaskIds.forKey(r.handler(), r.key());
    String payload = encodePayload(r.payload());
    int attempts = r.maxAttempts() != null ? r.maxAttempts() : config.defaultMaxAttempts();
    long timeoutMs =
        r.timeout() != null ? millis("timeoutMs", r.timeout()) : config.defaultTimeout().toMillis();
    Map<String, String> headers = trace.enrich(r.headers());
    if (batch != null) {
      headers = new java.util.LinkedHashMap<>(headers);
      headers.put(ReservedHeaders.BATCH, batch);
    }
    var envelope =
        TaskEnvelope.builder()
            .id(id)
            .handler(r.handler())
            .key(r.key())
            .orderingKey(r.orderingKey())
            .dueAt(dueAt(r, now))
            .maxAttempts(attempts)
            .timeoutMs(timeoutMs)
            .backoff(r.backoff())
            .dependsOn(r.dependsOn())
            .headers(headers)
            .createdAt(now)
            .options(r.options())
            .build();
    validator.validate(envelope, payload.getBytes(StandardCharsets.UTF_8).length, now);
    return new Built(envelope, payload);
  }

  /**
   * The unique-window claim of {@code r}, whose row is {@code row} ({@link #task}); null when it
   * has no window.
   */
  UniqueWindows.Claim claim(TaskRequest r, OutboxRow row) {
    if (r.unique() == null) {
      return null;
    }
    long window = UniqueWindows.checkWindow(r.unique()).toMillis();
    long now = row.createdAt();
    return new UniqueWindows.Claim(r.handler(), r.key(), row.taskId(), now, now + window);
  }

  OutboxRow cancel(String taskId, String handler, String key, String reason) {
    return OutboxRows.cancel(
        CancelCommand.of(taskId, reason, clock.millis()).withTask(handler, key));
  }

  /** A SCHEDULE row of {@code r}: its payload encoded by the codec, its version defaulted. */
  OutboxRow schedule(ScheduleRequest r) {
    ScheduleDefinition.Builder b =
        r.fields().toBuilder().payload(WireCodec.readTree(encodePayload(r.payload())));
    if (r.version() != null) {
      b.version(r.version());
    }
    return schedule(b.build(), r.version() != null);
  }

  /**
   * A SCHEDULE row of {@code d}; version 0 (the builder's default) means "none given" unless {@code
   * versioned}: the row's creation time in epoch millis is used.
   */
  OutboxRow schedule(ScheduleDefinition d, boolean versioned) {
    long now = clock.millis();
    ScheduleDefinition defined =
        versioned || d.version() != 0 ? d : d.toBuilder().version(now).build();
    schedules.validate(defined, WireCodec.encode(defined).length);
    return OutboxRows.schedule(TaskIds.keyless(clock), defined, now);
  }

  /** An UNSCHEDULE row; a null version becomes the request time in epoch millis. */
  OutboxRow unschedule(String name, Long version) {
    long now = clock.millis();
    Unschedule u = schedules.validate(Unschedule.of(name, version == null ? now : version, now));
    return OutboxRows.unschedule(TaskIds.keyless(clock), u);
  }

  private String encodePayload(Object payload) {
    String json;
    try {
      json = codec.encode(payload);
    } catch (Exception | StackOverflowError e) {
      throw new InvalidTaskException(
          "payload",
          "cannot be encoded as JSON ("
              + (payload == null ? "null" : payload.getClass().getName())
              + "): "
              + e);
    }
    if (json == null) {
      throw new InvalidTaskException("payload", "the codec returned null instead of JSON text");
    }
    return json;
  }

  private static long dueAt(TaskRequest r, long now) {
    try {
      if (r.dueAt() != null) {
        return r.dueAt().toEpochMilli();
      }
      return r.delay() == null ? now : Math.addExact(now, r.delay().toMillis());
    } catch (ArithmeticException e) {
      throw new InvalidTaskException("dueAt", "is out of range (limit: 10 years ahead)");
    }
  }

  private static long millis(String field, Duration d) {
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      throw new InvalidTaskException(field, d + " is out of range");
    }
  }
}
