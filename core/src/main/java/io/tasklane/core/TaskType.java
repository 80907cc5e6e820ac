package io.tasklane.core;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * A task type declared once and used on both sides: its handler name, its payload class and the
 * defaults of its tasks. The outbox enqueues it with a payload of that class ({@code
 * TaskRequest.of(ORDER_CANCEL, ref)}) and the worker binds it to a handler of that payload type
 * ({@code TypedHandler<OrderRef>}), so the name and the payload type are declared in one place.
 *
 * <pre>{@code
 * public static final TaskType<OrderRef> ORDER_CANCEL =
 *     TaskType.of("order.cancel", OrderRef.class)
 *         .maxAttempts(5)
 *         .backoff(RetryPolicy.fixed(Duration.ofMinutes(1)))
 *         .timeout(Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>Unset defaults ({@code null}) leave the choice to the outbox (attempts, timeout) and the
 * scheduler (backoff); a request can still override each of them. Immutable and thread-safe; the
 * name and each default are checked when set and a bad one throws {@link InvalidTaskException}
 * naming the field.
 *
 * @param <P> the payload type
 */
public final class TaskType<P> {
  private final String name;
  private final Class<P> payloadType;
  private final Integer maxAttempts;
  private final RetryPolicy backoff;
  private final Duration timeout;
  private final Function<? super P, String> orderingKey;
  private final Function<? super P, String> concurrencyKey;
  private final Integer priority;

  private TaskType(
      String name,
      Class<P> payloadType,
      Integer maxAttempts,
      RetryPolicy backoff,
      Duration timeout,
      Function<? super P, String> orderingKey,
      Function<? super P, String> concurrencyKey,
      Integer priority) {
    this.name = HandlerNames.check(name);
    this.payloadType = payloadType;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.timeout = timeout;
    this.orderingKey = orderingKey;
    this.concurrencyKey = concurrencyKey;
    this.priority = priority;
  }

  /**
   * The task type handled by {@code name} ({@code [a-z0-9][a-z0-9._-]{0,99}}) with payloads of
   * {@code payloadType}, and no defaults of its own.
   */
  public static <P> TaskType<P> of(String name, Class<P> payloadType) {
    if (payloadType == null) {
      throw new InvalidTaskException("payloadType", "is missing (name the payload class)");
    }
    if (payloadType.isPrimitive()) {
      throw new InvalidTaskException(
          "payloadType", payloadType + " is primitive; name its wrapper class");
    }
    return new TaskType<>(name, payloadType, null, null, null, null, null, null);
  }

  /** This type with tasks attempted at most {@code value} times (1 to 1000). */
  public TaskType<P> maxAttempts(int value) {
    if (value < TaskLimits.MIN_ATTEMPTS || value > TaskLimits.MAX_ATTEMPTS) {
      throw new InvalidTaskException(
          "maxAttempts", value + " is outside 1 to " + TaskLimits.MAX_ATTEMPTS);
    }
    return new TaskType<>(
        name, payloadType, value, backoff, timeout, orderingKey, concurrencyKey, priority);
  }

  /** This type with {@code value} as the delay policy between attempts. */
  public TaskType<P> backoff(RetryPolicy value) {
    return new TaskType<>(
        name,
        payloadType,
        maxAttempts,
        Objects.requireNonNull(value, "backoff"),
        timeout,
        orderingKey,
        concurrencyKey,
        priority);
  }

  /** This type with {@code value} as the execution timeout of one attempt (1 s to 24 h). */
  public TaskType<P> timeout(Duration value) {
    Objects.requireNonNull(value, "timeout");
    if (value.compareTo(Duration.ofMillis(TaskLimits.MIN_TIMEOUT_MS)) < 0
        || value.compareTo(Duration.ofMillis(TaskLimits.MAX_TIMEOUT_MS)) > 0) {
      throw new InvalidTaskException("timeout", value + " is outside 1 s to 24 h");
    }
    return new TaskType<>(
        name, payloadType, maxAttempts, backoff, value, orderingKey, concurrencyKey, priority);
  }

  /**
   * This type with its tasks in ordered lanes (docs/lanes.md): each task's ordering key is {@code
   * key} of its payload, e.g. {@code OrderRef::orderId}, so the tasks of one order run one after
   * another in commit order. Not together with {@link #concurrencyKey}.
   */
  public TaskType<P> orderingKey(Function<? super P, String> key) {
    Objects.requireNonNull(key, "orderingKey");
    if (concurrencyKey != null) {
      throw new InvalidTaskException("orderingKey", "cannot be set with concurrencyKey");
    }
    return new TaskType<>(name, payloadType, maxAttempts, backoff, timeout, key, null, priority);
  }

  /**
   * This type with its tasks in keyed lanes (docs/lanes.md): each task's concurrency key is {@code
   * key} of its payload, e.g. {@code Job::tenant}, so at most the handler's {@code maxPerKey} tasks
   * of one tenant run at once. Not together with {@link #orderingKey}.
   */
  public TaskType<P> concurrencyKey(Function<? super P, String> key) {
    Objects.requireNonNull(key, "concurrencyKey");
    if (orderingKey != null) {
      throw new InvalidTaskException("concurrencyKey", "cannot be set with orderingKey");
    }
    return new TaskType<>(name, payloadType, maxAttempts, backoff, timeout, null, key, priority);
  }

  /**
   * This type with its tasks at priority {@code value}, 0 (lowest) to 9 (highest; default 5): a
   * saturated handler releases its waiting tasks highest priority first (docs/priorities.md).
   */
  public TaskType<P> priority(int value) {
    String wrong = TaskOptions.priorityProblem(value);
    if (wrong != null) {
      throw new InvalidTaskException("priority", wrong);
    }
    return new TaskType<>(
        name, payloadType, maxAttempts, backoff, timeout, orderingKey, concurrencyKey, value);
  }

  /** The priority of this type's tasks, or null when it sets none (the default, 5). */
  public Integer priority() {
    return priority;
  }

  /** The ordering key of a task of this type with {@code payload}, or null when it has none. */
  public String orderingKeyOf(P payload) {
    return orderingKey == null || payload == null ? null : orderingKey.apply(payload);
  }

  /** The concurrency key of a task of this type with {@code payload}, or null when it has none. */
  public String concurrencyKeyOf(P payload) {
    return concurrencyKey == null || payload == null ? null : concurrencyKey.apply(payload);
  }

  /** The handler name: the handler topic and the name the worker binds it to. */
  public String name() {
    return name;
  }

  /** The class payloads of this type are encoded from and bound to. */
  public Class<P> payloadType() {
    return payloadType;
  }

  /** Default attempts of its tasks, or null for the outbox's default. */
  public Integer maxAttempts() {
    return maxAttempts;
  }

  /** Default backoff of its tasks, or null for the scheduler's default (Sidekiq's). */
  public RetryPolicy backoff() {
    return backoff;
  }

  /** Default execution timeout of one attempt, or null for the outbox's default. */
  public Duration timeout() {
    return timeout;
  }

  /** The task of this type enqueued with idempotency key {@code key}, e.g. to cancel it. */
  public TaskKey key(String key) {
    return TaskKey.of(name, key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskType<?> t
        && name.equals(t.name)
        && payloadType.equals(t.payloadType)
        && Objects.equals(maxAttempts, t.maxAttempts)
        && Objects.equals(backoff, t.backoff)
        && Objects.equals(timeout, t.timeout)
        && Objects.equals(orderingKey, t.orderingKey)
        && Objects.equals(concurrencyKey, t.concurrencyKey)
        && Objects.equals(priority, t.priority);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name, payloadType, maxAttempts, backoff, timeout, orderingKey, concurrencyKey, priority);
  }

  @Override
  public String toString() {
    return "TaskType[" + name + ", " + payloadType.getName() + "]";
  }
}
