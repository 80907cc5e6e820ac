package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;
import java.util.Map;

/**
 * A task as it travels on {@code tasklane.tasks} and inside every dispatch. Immutable; build it
 * with {@link #builder()}, change it with {@link #toBuilder()} or the {@code with*} methods.
 * Validate with {@link TaskValidator} before writing it anywhere. Safe to share between threads.
 *
 * @param v wire version ({@link Wire#VERSION})
 * @param id task id ({@link TaskIds})
 * @param handler handler name ({@link HandlerNames})
 * @param key idempotency key the id was derived from, or null
 * @param orderingKey the key of the task's ordered lane: tasks of one handler and ordering key
 *     start one after another in enqueue order (docs/lanes.md); also its routing key; or null
 * @param payload the handler's argument, any JSON value
 * @param dueAt epoch millis; at or before now means "run now"
 * @param maxAttempts attempts before the task goes DEAD (1 to 1000)
 * @param timeoutMs execution timeout of one attempt
 * @param backoff delay policy between attempts
 * @param dependsOn ids of tasks that must succeed first
 * @param headers string headers, e.g. W3C {@code traceparent}
 * @param createdAt epoch millis of the enqueue
 * @param source the outbox row that carried the task, or null
 * @param shard the slice of a broadcast run, or null
 * @param options the task's optional settings ({@link TaskOptions}); never null in memory, left out
 *     of the JSON when empty
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskEnvelope(
    @JsonProperty(required = true) int v,
    String id,
    String handler,
    String key,
    String orderingKey,
    JsonNode payload,
    long dueAt,
    int maxAttempts,
    long timeoutMs,
    RetryPolicy backoff,
    List<String> dependsOn,
    Map<String, String> headers,
    long createdAt,
    Source source,
    Shard shard,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NoOptions.class)
        TaskOptions options)
    implements TaskTopicRecord {

  /** Sidekiq's default retry budget. */
  public static final int DEFAULT_MAX_ATTEMPTS = 25;

  /** Default execution timeout of one attempt: 5 minutes. */
  public static final long DEFAULT_TIMEOUT_MS = 300_000;

  public TaskEnvelope {
    payload = payload == null ? NullNode.getInstance() : payload;
    backoff = backoff == null ? RetryPolicy.sidekiq() : backoff;
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    headers = headers == null ? Map.of() : Map.copyOf(headers);
    options = options == null ? TaskOptions.none() : options;
  }

  /** Leaves empty options out of the JSON, so that a task without options reads as before. */
  static final class NoOptions {
    @Override
    public boolean equals(Object value) {
      return value == null || value instanceof TaskOptions o && o.isEmpty();
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }

  /**
   * The Kafka key of this task's records: {@code orderingKey} when set, else the options' {@code
   * concurrencyKey} when set, else {@code id}; so every task of one lane lives on one partition.
   */
  public String routingKey() {
    if (orderingKey != null) {
      return orderingKey;
    }
    String k = options.concurrencyKey();
    return k != null ? k : id;
  }

  /** The key of the task's lane ({@code orderingKey}, else {@code concurrencyKey}), or null. */
  public String laneKey() {
    return orderingKey != null ? orderingKey : options.concurrencyKey();
  }

  /**
   * A builder with the defaults of a new task: version {@link Wire#VERSION}, {@link
   * #DEFAULT_MAX_ATTEMPTS} attempts, {@link #DEFAULT_TIMEOUT_MS}, Sidekiq's backoff, due at 0 (run
   * now), no payload, dependencies, headers or options. Nothing is checked when building; validate
   * with {@link TaskValidator}, which names a missing {@code id} or {@code handler}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every field of this task. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  public TaskEnvelope withDueAt(long newDueAt) {
    return toBuilder().dueAt(newDueAt).build();
  }

  public TaskEnvelope withSource(Source newSource) {
    return toBuilder().source(newSource).build();
  }

  public TaskEnvelope withShard(Shard newShard) {
    return toBuilder().shard(newShard).build();
  }

  /** Mutable, single-threaded builder of a {@link TaskEnvelope}; see {@link #builder()}. */
  public static final class Builder {
    private int v = Wire.VERSION;
    private String id;
    private String handler;
    private String key;
    private String orderingKey;
    private JsonNode payload;
    private long dueAt;
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private long timeoutMs = DEFAULT_TIMEOUT_MS;
    private RetryPolicy backoff;
    private List<String> dependsOn;
    private Map<String, String> headers;
    private long createdAt;
    private Source source;
    private Shard shard;
    private TaskOptions options;

    private Builder() {}

    private Builder(TaskEnvelope t) {
      v = t.v;
      id = t.id;
      handler = t.handler;
      key = t.key;
      orderingKey = t.orderingKey;
      payload = t.payload;
      dueAt = t.dueAt;
      maxAttempts = t.maxAttempts;
      timeoutMs = t.timeoutMs;
      backoff = t.backoff;
      dependsOn = t.dependsOn;
      headers = t.headers;
      createdAt = t.createdAt;
      source = t.source;
      shard = t.shard;
      options = t.options;
    }

    public Builder v(int value) {
      v = value;
      return this;
    }

    public Builder id(String value) {
      id = value;
      return this;
    }

    public Builder handler(String value) {
      handler = value;
      return this;
    }

    public Builder key(String value) {
      key = value;
      return this;
    }

    public Builder orderingKey(String value) {
      orderingKey = value;
      return this;
    }

    /** Any JSON value; {@code null} becomes JSON {@code null}. */
    public Builder payload(JsonNode value) {
      payload = value;
      return this;
    }

    /** Epoch millis; at or before now means "run now". */
    public Builder dueAt(long value) {
      dueAt = value;
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

    /** {@code null} means Sidekiq's policy. */
    public Builder backoff(RetryPolicy value) {
      backoff = value;
      return this;
    }

    public Builder dependsOn(List<String> value) {
      dependsOn = value;
      return this;
    }

    public Builder headers(Map<String, String> value) {
      headers = value;
      return this;
    }

    /** Epoch millis of the enqueue. */
    public Builder createdAt(long value) {
      createdAt = value;
      return this;
    }

    public Builder source(Source value) {
      source = value;
      return this;
    }

    public Builder shard(Shard value) {
      shard = value;
      return this;
    }

    /** {@code null} means none. */
    public Builder options(TaskOptions value) {
      options = value;
      return this;
    }

    public TaskEnvelope build() {
      return new TaskEnvelope(
          v,
          id,
          handler,
          key,
          orderingKey,
          payload,
          dueAt,
          maxAttempts,
          timeoutMs,
          backoff,
          dependsOn,
          headers,
          createdAt,
          source,
          shard,
          options);
    }
  }
}
