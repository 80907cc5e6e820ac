package io.tasklane.outbox;

import io.tasklane.core.DurationText;
import io.tasklane.core.MisfirePolicy;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.ScheduleDefinition.Routing;
import io.tasklane.core.TaskType;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A recurring schedule to define through {@link TaskOutbox#schedule(ScheduleRequest)}: immutable
 * and fluent, each method returns a new request. The payload is any object the outbox's {@code
 * PayloadCodec} encodes, like a task's. Everything is checked when it is scheduled ({@code
 * ScheduleValidator}: an {@link io.tasklane.core.InvalidTaskException} naming the field), not here.
 *
 * <pre>{@code
 * outbox.schedule(ScheduleRequest.named("reports.nightly")
 *     .handler("report.build").payload(new ReportRef("sales"))
 *     .cron("30 2 * * *").zone("Europe/Berlin").misfire(MisfirePolicy.FIRE_ONCE));
 * }</pre>
 *
 * <p>Without {@link #version(long)} the outbox gives the definition the request's time in epoch
 * millis as its version, so a later {@code schedule} of the same name replaces an earlier one.
 * Immutable and thread-safe.
 */
public final class ScheduleRequest {
  private final ScheduleDefinition fields;
  private final Object payload;
  private final Long version;

  private ScheduleRequest(ScheduleDefinition fields, Object payload, Long version) {
    this.fields = fields;
    this.payload = payload;
    this.version = version;
  }

  /** A request for schedule {@code name} ({@code [A-Za-z0-9][A-Za-z0-9._:-]{0,199}}). */
  public static ScheduleRequest named(String name) {
    return new ScheduleRequest(ScheduleDefinition.builder().name(name).build(), null, null);
  }

  /**
   * A request for schedule {@code name} whose fires run tasks of {@code type} with {@code payload},
   * taking the type's default attempts, timeout and backoff (later calls override them).
   */
  public static <P> ScheduleRequest named(String name, TaskType<P> type, P payload) {
    ScheduleRequest r = named(name).handler(type.name()).payload(payload);
    ScheduleDefinition.Builder b = r.fields.toBuilder();
    if (type.maxAttempts() != null) {
      b.maxAttempts(type.maxAttempts());
    }
    if (type.timeout() != null) {
      b.timeoutMs(DurationText.millis("timeoutMs", type.timeout()));
    }
    if (type.backoff() != null) {
      b.backoff(type.backoff());
    }
    return new ScheduleRequest(b.build(), r.payload, null);
  }

  /** The handler each fire runs. */
  public ScheduleRequest handler(String handler) {
    return with(b -> b.handler(handler));
  }

  /** The handler's argument in every fire (null for none). */
  public ScheduleRequest payload(Object value) {
    return new ScheduleRequest(fields, value, version);
  }

  /** A cron expression: 5 fields (Unix), or 6–7 with seconds first (Quartz/Spring). */
  public ScheduleRequest cron(String expression) {
    return with(b -> b.cron(expression).every(null));
  }

  /** A fixed rate such as {@code 30s}, {@code 5m}, {@code 2h} (1 s to 366 d). */
  public ScheduleRequest every(String rate) {
    return with(b -> b.every(rate).cron(null));
  }

  /** A fixed rate (1 s to 366 d), written in milliseconds. */
  public ScheduleRequest every(Duration rate) {
    return every(DurationText.millis("every", rate) + "ms");
  }

  /** The time zone of the cron expression (default UTC). */
  public ScheduleRequest zone(String zoneId) {
    return with(b -> b.zone(zoneId));
  }

  public ScheduleRequest zone(ZoneId zone) {
    return zone(zone.getId());
  }

  /** Nothing fires before this instant. */
  public ScheduleRequest startAt(Instant at) {
    return with(b -> b.startAt(at == null ? null : at.toEpochMilli()));
  }

  /** Nothing fires at or after this instant. */
  public ScheduleRequest endAt(Instant at) {
    return with(b -> b.endAt(at == null ? null : at.toEpochMilli()));
  }

  /** {@code false} defines the schedule paused (default {@code true}). */
  public ScheduleRequest enabled(boolean enabled) {
    return with(b -> b.enabled(enabled));
  }

  /** What a late timer fires (default {@code FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)}). */
  public ScheduleRequest misfire(MisfirePolicy policy) {
    return misfire(policy.toString());
  }

  /** The misfire policy as text, e.g. {@code FIRE_ALL(max 10)}. */
  public ScheduleRequest misfire(String policy) {
    return with(b -> b.misfire(policy));
  }

  /** What a fire does while an earlier one runs (default {@code ALLOW}). */
  public ScheduleRequest overlap(Overlap overlap) {
    return with(b -> b.overlap(overlap));
  }

  /** Which workers run a fire (default {@code ONE}). */
  public ScheduleRequest routing(Routing routing) {
    return with(b -> b.routing(routing));
  }

  /** {@code shards} tasks per fire, each with its shard index: routing {@code BROADCAST}. */
  public ScheduleRequest broadcast(int shards) {
    return with(b -> b.routing(Routing.BROADCAST).shards(shards));
  }

  /**
   * The ordering key of each fire's task (routing {@code ONE} only; null for none): the fires run
   * in that key's ordered lane, one at a time and in order with the handler's other tasks of the
   * key (docs/lanes.md). Not with {@link #concurrencyKey(String)}.
   */
  public ScheduleRequest orderingKey(String key) {
    return with(b -> b.orderingKey(key));
  }

  /**
   * The concurrency key of each fire's task (routing {@code ONE} only; null for none): the
   * handler's {@code max-per-key} counts the fires with its other tasks of the key (docs/lanes.md).
   * Not with {@link #orderingKey(String)}.
   */
  public ScheduleRequest concurrencyKey(String key) {
    return with(b -> b.concurrencyKey(key));
  }

  /**
   * The priority of each fire's task, 0 (lowest) to 9 (highest; default 5): a saturated handler
   * releases its waiting tasks highest priority first (docs/priorities.md).
   */
  public ScheduleRequest priority(int priority) {
    return with(b -> b.priority(priority));
  }

  /** Schedules started after a fire's tasks all succeeded. */
  public ScheduleRequest children(List<String> names) {
    return with(b -> b.children(names));
  }

  /** Attempts of each fire's task (default 1). */
  public ScheduleRequest maxAttempts(int attempts) {
    return with(b -> b.maxAttempts(attempts));
  }

  /** Timeout of one attempt of a fire's task (default 5 minutes). */
  public ScheduleRequest timeout(Duration timeout) {
    long ms = DurationText.millis("timeoutMs", timeout);
    return with(b -> b.timeoutMs(ms));
  }

  /** Delay between attempts of a fire's task (default Sidekiq's). */
  public ScheduleRequest backoff(RetryPolicy backoff) {
    return with(b -> b.backoff(backoff));
  }

  /**
   * The definition's version (≥ 0): it replaces the stored one only when higher. Without it the
   * request's time in epoch millis is used.
   */
  public ScheduleRequest version(long value) {
    return new ScheduleRequest(fields, payload, value);
  }

  /**
   * The definition's fields; its payload and version are {@link #payload()} and {@link #version()}.
   */
  ScheduleDefinition fields() {
    return fields;
  }

  Object payload() {
    return payload;
  }

  /** The caller's version, or null for the default. */
  Long version() {
    return version;
  }

  private ScheduleRequest with(UnaryOperator<ScheduleDefinition.Builder> change) {
    return new ScheduleRequest(change.apply(fields.toBuilder()).build(), payload, version);
  }

  @Override
  public String toString() {
    return "ScheduleRequest[" + fields.name() + " -> " + fields.handler() + "]";
  }
}
