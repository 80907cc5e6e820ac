package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;

/**
 * A recurring schedule as it travels on {@code <ns>.tasks}, keyed by {@code name}, {@code type}
 * {@code schedule}. The scheduler owning the name's partition keeps it and turns each fire into an
 * ordinary task with id {@link TaskIds#forScheduleFire}. A definition replaces the stored one of
 * the same name only when its {@code version} is higher; pausing is a new version with {@code
 * enabled} false. Build it with {@link #builder()}; check it with {@link ScheduleValidator}.
 * Immutable and thread-safe.
 *
 * @param v wire version
 * @param name the schedule's name ({@link ScheduleValidator#NAME})
 * @param version ordering of definitions of one name (≥ 0); an older one is ignored
 * @param handler the handler each fire runs
 * @param payload the handler's argument in every fire
 * @param cron a cron expression (5 fields, or 6–7 with seconds), or null when {@code every} is set
 * @param every a fixed rate such as {@code 30s}, fires aligned to {@code startAt} (else the epoch)
 * @param zone the time zone of {@code cron} (default {@code UTC})
 * @param startAt epoch millis before which nothing fires, or null
 * @param endAt epoch millis from which nothing fires, or null
 * @param enabled false pauses the schedule (default true)
 * @param misfire the {@link MisfirePolicy} text (default {@code FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)})
 * @param overlap what a fire does while an earlier fire's tasks are not finished (default {@code
 *     ALLOW})
 * @param routing which workers run a fire (default {@code ONE})
 * @param shards the number of tasks per fire for {@code BROADCAST} (default 1)
 * @param children names of schedules each started once after a fire's tasks all succeeded
 * @param maxAttempts attempts of each fire's task (default 1)
 * @param timeoutMs execution timeout of one attempt (default 5 minutes)
 * @param backoff delay between attempts (default Sidekiq's)
 * @param origin who defined it, for operators and the defining app: {@code code:<app>} for a worker
 *     app's {@code @Recurring} handlers, or null (absent from the JSON) otherwise
 * @param orderingKey routing {@code ONE} only: the ordering key of each fire's task, which runs in
 *     that key's ordered lane with the handler's other tasks of the key (docs/lanes.md); or null
 *     (absent from the JSON)
 * @param concurrencyKey routing {@code ONE} only: the concurrency key of each fire's task (its
 *     {@link TaskOptions#concurrencyKey()}), not with {@code orderingKey}; or null (absent from the
 *     JSON)
 * @param priority the priority of each fire's task, 0 to 9 (its {@link TaskOptions#priority()}); or
 *     null (absent from the JSON) for the default, 5
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScheduleDefinition(
    @JsonProperty(required = true) int v,
    String name,
    long version,
    String handler,
    JsonNode payload,
    String cron,
    String every,
    String zone,
    Long startAt,
    Long endAt,
    Boolean enabled,
    String misfire,
    Overlap overlap,
    Routing routing,
    Integer shards,
    List<String> children,
    Integer maxAttempts,
    Long timeoutMs,
    RetryPolicy backoff,
    String origin,
    String orderingKey,
    String concurrencyKey,
    Integer priority)
    implements TaskTopicRecord {

  /** What a fire does while an earlier fire of the schedule still runs. */
  public enum Overlap {
    /** Fires run side by side (XXL-JOB has no such strategy; Quartz's default). */
    ALLOW,
    /** The fire makes no task and is recorded as skipped (XXL-JOB {@code DISCARD_LATER}). */
    SKIP_IF_RUNNING,
    /**
     * The fire waits until the running fire's tasks are finished; at most one fire waits, later
     * ones are skipped as {@code queue-full} (XXL-JOB {@code SERIAL_EXECUTION}, bounded).
     */
    QUEUE,
    /** The running fire's tasks are cancelled and the fire runs (XXL-JOB {@code COVER_EARLY}). */
    REPLACE
  }

  /** Which workers run a fire. */
  public enum Routing {
    /** One task per fire. */
    ONE,
    /** {@code shards} tasks per fire, each with its {@link Shard}. */
    BROADCAST,
    /** One task per live consumer of the handler's topic, counted at each fire. */
    ALL_WORKERS
  }

  public ScheduleDefinition {
    payload = payload == null ? NullNode.getInstance() : payload;
    zone = zone == null ? "UTC" : zone;
    enabled = enabled == null ? Boolean.TRUE : enabled;
    misfire = misfire == null ? MisfirePolicy.DEFAULT.toString() : misfire;
    overlap = overlap == null ? Overlap.ALLOW : overlap;
    routing = routing == null ? Routing.ONE : routing;
    shards = shards == null ? 1 : shards;
    children = children == null ? List.of() : List.copyOf(children);
    maxAttempts = maxAttempts == null ? 1 : maxAttempts;
    timeoutMs = timeoutMs == null ? TaskEnvelope.DEFAULT_TIMEOUT_MS : timeoutMs;
    backoff = backoff == null ? RetryPolicy.sidekiq() : backoff;
  }

  /** The parsed {@code misfire}; throws {@link InvalidTaskException} when it does not parse. */
  public MisfirePolicy misfirePolicy() {
    return MisfirePolicy.parse(misfire);
  }

  /** A builder with the defaults listed on the record; set name, version, handler, a trigger. */
  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Mutable, single-threaded builder of a {@link ScheduleDefinition}. */
  public static final class Builder {
    private String name;
    private long version;
    private String handler;
    private JsonNode payload;
    private String cron;
    private String every;
    private String zone;
    private Long startAt;
    private Long endAt;
    private Boolean enabled;
    private String misfire;
    private Overlap overlap;
    private Routing routing;
    private Integer shards;
    private List<String> children;
    private Integer maxAttempts;
    private Long timeoutMs;
    private RetryPolicy backoff;
    private String origin;
    private String orderingKey;
    private String concurrencyKey;
    private Integer priority;

    private Builder() {}

    private Builder(ScheduleDefinition d) {
      name = d.name;
      version = d.version;
      handler = d.handler;
      payload = d.payload;
      cron = d.cron;
      every = d.every;
      zone = d.zone;
      startAt = d.startAt;
      endAt = d.endAt;
      enabled = d.enabled;
      misfire = d.misfire;
      overlap = d.overlap;
      routing = d.routing;
      shards = d.shards;
      children = d.children;
      maxAttempts = d.maxAttempts;
      timeoutMs = d.timeoutMs;
      backoff = d.backoff;
      origin = d.origin;
      orderingKey = d.orderingKey;
      concurrencyKey = d.concurrencyKey;
      priority = d.priority;
    }

    public Builder name(String value) {
      name = value;
      return this;
    }

    public Builder version(long value) {
      version = value;
      return this;
    }

    public Builder handler(String value) {
      handler = value;
      return this;
    }

    public Builder payload(JsonNode value) {
      payload = value;
      return this;
    }

    /** A cron expression; clears nothing, so leave {@code every} unset. */
    public Builder cron(String value) {
      cron = value;
      return this;
    }

    /** A fixed rate such as {@code 30s}, {@code 5m}. */
    public Builder every(String value) {
      every = value;
      return this;
    }

    public Builder zone(String value) {
      zone = value;
      return this;
    }

    public Builder startAt(Long value) {
      startAt = value;
      return this;
    }

    public Builder endAt(Long value) {
      endAt = value;
      return this;
    }

    public Builder enabled(boolean value) {
      enabled = value;
      return this;
    }

    public Builder misfire(String value) {
      misfire = value;
      return this;
    }

    public Builder overlap(Overlap value) {
      overlap = value;
      return this;
    }

    public Builder routing(Routing value) {
      routing = value;
      return this;
    }

    public Builder shards(Integer value) {
      shards = value;
      return this;
    }

    public Builder children(List<String> value) {
      children = value;
      return this;
    }

    public Builder maxAttempts(int value) {
      maxAttempts = value;
      return this;
    }

    public Builder timeoutMs(long value) {
      timeoutMs = value;
      return this;
    }

    public Builder backoff(RetryPolicy value) {
      backoff = value;
      return this;
    }

    /** Who defined it, e.g. {@code code:billing-worker}; null for none. */
    public Builder origin(String value) {
      origin = value;
      return this;
    }

    /**
     * The ordering key of each fire's task (routing {@code ONE} only): the fires run in that key's
     * ordered lane, one at a time with the handler's other tasks of the key; null for none.
     */
    public Builder orderingKey(String value) {
      orderingKey = value;
      return this;
    }

    /**
     * The concurrency key of each fire's task (routing {@code ONE} only): the handler's {@code
     * max-per-key} counts the fires with its other tasks of the key; null for none.
     */
    public Builder concurrencyKey(String value) {
      concurrencyKey = value;
      return this;
    }

    /** The priority of each fire's task, 0 to 9 (checked by the validator); null: the default. */
    public Builder priority(Integer value) {
      priority = value;
      return this;
    }

    public ScheduleDefinition build() {
      return new ScheduleDefinition(
          Wire.VERSION,
          name,
          version,
          handler,
          payload,
          cron,
          every,
          zone,
          startAt,
          endAt,
          enabled,
          misfire,
          overlap,
          routing,
          shards,
          children,
          maxAttempts,
          timeoutMs,
          backoff,
          origin,
          orderingKey,
          concurrencyKey,
          priority);
    }
  }
}
