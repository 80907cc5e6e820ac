package io.tasklane.outbox;

import io.tasklane.core.PayloadCodec;
import io.tasklane.core.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to enqueue: an immutable value built fluently, each method returning a new request.
 *
 * <pre>{@code
 * TaskRequest.to("order.cancel")
 *     .payload(new CancelOrder(42))
 *     .delay(Duration.ofMinutes(30))
 *     .key("order-42")
 *     .maxAttempts(5)
 *     .backoff(RetryPolicy.fixed(Duration.ofMinutes(1), Duration.ofMinutes(5)));
 * }</pre>
 *
 * Nothing is checked here; {@link TaskOutbox#enqueue} validates against the limits and names the
 * offending field. Unset values ({@code null}) take the outbox's defaults.
 *
 * @param handler handler name, {@code [a-z0-9][a-z0-9._-]{0,99}}
 * @param payload the handler's argument, encoded by the outbox's {@link PayloadCodec}
 * @param delay run this long after the enqueue (ignored when {@code dueAt} is set)
 * @param dueAt run at or after this instant
 * @param key idempotency key: the task id is derived from {@code (handler, key)}
 * @param orderingKey Kafka routing key override (reserved for per-key ordering)
 * @param maxAttempts attempts before the task goes dead
 * @param timeout execution timeout of one attempt
 * @param backoff delay policy between attempts ({@code null}: the scheduler's default, Sidekiq's)
 * @param dependsOn ids of tasks that must succeed first
 * @param headers string headers travelling with the task
 */
public record TaskRequest(
    String handler,
    Object payload,
    Duration delay,
    Instant dueAt,
    String key,
    String orderingKey,
    Integer maxAttempts,
    Duration timeout,
    RetryPolicy backoff,
    List<String> dependsOn,
    Map<String, String> headers) {

  public TaskRequest {
    // Nulls are kept so that validation can name them instead of failing here.
    dependsOn =
        dependsOn == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(dependsOn));
    headers = headers == null ? Map.of() : Map.copyOf(headers);
  }

  /** A request for {@code handler} with no payload, due now, default attempts and timeout. */
  public static TaskRequest to(String handler) {
    return new TaskRequest(handler, null, null, null, null, null, null, null, null, null, null);
  }

  public TaskRequest payload(Object value) {
    return new TaskRequest(
        handler,
        value,
        delay,
        dueAt,
        key,
        orderingKey,
        maxAttempts,
        timeout,
        backoff,
        dependsOn,
        headers);
  }

  /** Due {@code value} after the enqueue; clears {@link #at}. */
  public TaskRequest delay(Duration value) {
    return new TaskRequest(
        handler,
        payload,
        value,
        null,
        key,
        orderingKey,
        maxAttempts,
        timeout,
        backoff,
        dependsOn,
        headers);
  }

  /** Due at {@code instant}; clears {@link #delay}. */
  public TaskRequest at(Instant instant) {
    return new TaskRequest(
        handler,
        payload,
        null,
        instant,
        key,
        orderingKey,
        maxAttempts,
        timeout,
        backoff,
        dependsOn,
        headers);
  }

  public TaskRequest key(String value) {
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        value,
        orderingKey,
        maxAttempts,
        timeout,
        backoff,
        dependsOn,
        headers);
  }

  public TaskRequest orderingKey(String value) {
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        key,
        value,
        maxAttempts,
        timeout,
        backoff,
        dependsOn,
        headers);
  }

  public TaskRequest maxAttempts(int value) {
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        key,
        orderingKey,
        value,
        timeout,
        backoff,
        dependsOn,
        headers);
  }

  public TaskRequest timeout(Duration value) {
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        key,
        orderingKey,
        maxAttempts,
        value,
        backoff,
        dependsOn,
        headers);
  }

  public TaskRequest backoff(RetryPolicy value) {
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        key,
        orderingKey,
        maxAttempts,
        timeout,
        value,
        dependsOn,
        headers);
  }

  /** Run only after each of {@code taskIds} has succeeded. Replaces earlier dependencies. */
  public TaskRequest dependsOn(String... taskIds) {
    return dependsOn(Arrays.asList(taskIds));
  }

  public TaskRequest dependsOn(List<String> taskIds) {
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        key,
        orderingKey,
        maxAttempts,
        timeout,
        backoff,
        taskIds,
        headers);
  }

  /** Adds (or replaces) one header. */
  public TaskRequest header(String name, String value) {
    Objects.requireNonNull(name, "header name");
    Objects.requireNonNull(value, "header value");
    var copy = new LinkedHashMap<>(headers);
    copy.put(name, value);
    return new TaskRequest(
        handler,
        payload,
        delay,
        dueAt,
        key,
        orderingKey,
        maxAttempts,
        timeout,
        backoff,
        dependsOn,
        copy);
  }
}
