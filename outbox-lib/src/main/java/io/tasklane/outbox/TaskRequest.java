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
import java.util.function.Consumer;

/**
 * What to enqueue: an immutable value built fluently, each method returning a new request. Safe to
 * share between threads.
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
 * <p>The accessors return the values as set:
 *
 * <ul>
 *   <li>{@code handler}: handler name, {@code [a-z0-9][a-z0-9._-]{0,99}}
 *   <li>{@code payload}: the handler's argument, encoded by the outbox's {@link PayloadCodec}
 *   <li>{@code delay}: run this long after the enqueue (ignored when {@code dueAt} is set)
 *   <li>{@code dueAt}: run at or after this instant
 *   <li>{@code key}: idempotency key: the task id is derived from {@code (handler, key)}
 *   <li>{@code orderingKey}: Kafka routing key override (reserved for per-key ordering)
 *   <li>{@code maxAttempts}: attempts before the task goes dead
 *   <li>{@code timeout}: execution timeout of one attempt
 *   <li>{@code backoff}: delay policy between attempts ({@code null}: the scheduler's default,
 *       Sidekiq's)
 *   <li>{@code dependsOn}: ids of tasks that must succeed first
 *   <li>{@code headers}: string headers travelling with the task
 * </ul>
 */
public final class TaskRequest {
  private final String handler;
  private final Object payload;
  private final Duration delay;
  private final Instant dueAt;
  private final String key;
  private final String orderingKey;
  private final Integer maxAttempts;
  private final Duration timeout;
  private final RetryPolicy backoff;
  private final List<String> dependsOn;
  private final Map<String, String> headers;

  private TaskRequest(Fields f) {
    // Nulls are kept so that validation can name them instead of failing here.
    handler = f.handler;
    payload = f.payload;
    delay = f.delay;
    dueAt = f.dueAt;
    key = f.key;
    orderingKey = f.orderingKey;
    maxAttempts = f.maxAttempts;
    timeout = f.timeout;
    backoff = f.backoff;
    dependsOn =
        f.dependsOn == null
            ? List.of()
            : Collections.unmodifiableList(new ArrayList<>(f.dependsOn));
    headers = f.headers == null ? Map.of() : Map.copyOf(f.headers);
  }

  /** A request for {@code handler} with no payload, due now, default attempts and timeout. */
  public static TaskRequest to(String handler) {
    Fields f = new Fields();
    f.handler = handler;
    return new TaskRequest(f);
  }

  public TaskRequest payload(Object value) {
    return with(f -> f.payload = value);
  }

  /** Due {@code value} after the enqueue; clears {@link #at}. */
  public TaskRequest delay(Duration value) {
    return with(
        f -> {
          f.delay = value;
          f.dueAt = null;
        });
  }

  /** Due at {@code instant}; clears {@link #delay}. */
  public TaskRequest at(Instant instant) {
    return with(
        f -> {
          f.delay = null;
          f.dueAt = instant;
        });
  }

  public TaskRequest key(String value) {
    return with(f -> f.key = value);
  }

  public TaskRequest orderingKey(String value) {
    return with(f -> f.orderingKey = value);
  }

  public TaskRequest maxAttempts(int value) {
    return with(f -> f.maxAttempts = value);
  }

  public TaskRequest timeout(Duration value) {
    return with(f -> f.timeout = value);
  }

  public TaskRequest backoff(RetryPolicy value) {
    return with(f -> f.backoff = value);
  }

  /** Run only after each of {@code taskIds} has succeeded. Replaces earlier dependencies. */
  public TaskRequest dependsOn(String... taskIds) {
    return dependsOn(Arrays.asList(taskIds));
  }

  public TaskRequest dependsOn(List<String> taskIds) {
    return with(f -> f.dependsOn = taskIds);
  }

  /** Adds (or replaces) one header. */
  public TaskRequest header(String name, String value) {
    Objects.requireNonNull(name, "header name");
    Objects.requireNonNull(value, "header value");
    var copy = new LinkedHashMap<>(headers);
    copy.put(name, value);
    return with(f -> f.headers = copy);
  }

  public String handler() {
    return handler;
  }

  public Object payload() {
    return payload;
  }

  public Duration delay() {
    return delay;
  }

  public Instant dueAt() {
    return dueAt;
  }

  public String key() {
    return key;
  }

  public String orderingKey() {
    return orderingKey;
  }

  public Integer maxAttempts() {
    return maxAttempts;
  }

  public Duration timeout() {
    return timeout;
  }

  public RetryPolicy backoff() {
    return backoff;
  }

  public List<String> dependsOn() {
    return dependsOn;
  }

  public Map<String, String> headers() {
    return headers;
  }

  private TaskRequest with(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return new TaskRequest(f);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskRequest r
        && Objects.equals(handler, r.handler)
        && Objects.equals(payload, r.payload)
        && Objects.equals(delay, r.delay)
        && Objects.equals(dueAt, r.dueAt)
        && Objects.equals(key, r.key)
        && Objects.equals(orderingKey, r.orderingKey)
        && Objects.equals(maxAttempts, r.maxAttempts)
        && Objects.equals(timeout, r.timeout)
        && Objects.equals(backoff, r.backoff)
        && dependsOn.equals(r.dependsOn)
        && headers.equals(r.headers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
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
        headers);
  }

  @Override
  public String toString() {
    return "TaskRequest[handler="
        + handler
        + ", payload="
        + payload
        + ", delay="
        + delay
        + ", dueAt="
        + dueAt
        + ", key="
        + key
        + ", orderingKey="
        + orderingKey
        + ", maxAttempts="
        + maxAttempts
        + ", timeout="
        + timeout
        + ", backoff="
        + backoff
        + ", dependsOn="
        + dependsOn
        + ", headers="
        + headers
        + "]";
  }

  /** The mutable fields of one change; confined to the method making it. */
  private static final class Fields {
    String handler;
    Object payload;
    Duration delay;
    Instant dueAt;
    String key;
    String orderingKey;
    Integer maxAttempts;
    Duration timeout;
    RetryPolicy backoff;
    List<String> dependsOn;
    Map<String, String> headers;

    Fields() {}

    Fields(TaskRequest r) {
      handler = r.handler;
      payload = r.payload;
      delay = r.delay;
      dueAt = r.dueAt;
      key = r.key;
      orderingKey = r.orderingKey;
      maxAttempts = r.maxAttempts;
      timeout = r.timeout;
      backoff = r.backoff;
      dependsOn = r.dependsOn;
      headers = r.headers;
    }
  }
}
