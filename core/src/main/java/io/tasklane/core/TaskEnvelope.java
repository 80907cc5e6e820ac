package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;
import java.util.Map;

/**
 * A task as it travels on {@code tasklane.tasks} and inside every dispatch. Immutable; change it
 * with the {@code with*} methods. Validate with {@link TaskValidator} before writing it anywhere.
 *
 * @param v wire version ({@link Wire#VERSION})
 * @param id task id ({@link TaskIds})
 * @param handler handler name ({@link HandlerNames})
 * @param key idempotency key the id was derived from, or null
 * @param orderingKey routing key override (reserved for per-key ordering), or null
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
    Shard shard)
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
  }

  /** The Kafka key of this task's records: {@code orderingKey} when set, else {@code id}. */
  public String routingKey() {
    return orderingKey != null ? orderingKey : id;
  }

  public TaskEnvelope withDueAt(long newDueAt) {
    return new TaskEnvelope(
        v,
        id,
        handler,
        key,
        orderingKey,
        payload,
        newDueAt,
        maxAttempts,
        timeoutMs,
        backoff,
        dependsOn,
        headers,
        createdAt,
        source,
        shard);
  }

  public TaskEnvelope withSource(Source newSource) {
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
        newSource,
        shard);
  }

  public TaskEnvelope withShard(Shard newShard) {
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
        newShard);
  }
}
