package io.tasklane.outbox;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskType;
import io.tasklane.core.UniqueUntil;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
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
 * A task of a declared {@link TaskType} starts from the type, its payload checked against the
 * type's payload class and the type's defaults filled in:
 *
 * <pre>{@code
 * TaskRequest.of(OrderTasks.ORDER_CANCEL, new OrderRef(42)).delay(Duration.ofMinutes(30));
 * }</pre>
 *
 * Nothing else is checked here; {@link TaskOutbox#enqueue} validates against the limits and names
 * the offending field. Unset values ({@code null}) take the outbox's defaults.
 *
 * <p>The accessors return the values as set: {@code handler} ({@code [a-z0-9][a-z0-9._-]{0,99}}),
 * {@code payload} (encoded by the outbox's {@link PayloadCodec}), {@code delay} (after the enqueue;
 * ignored when {@code dueAt} is set), {@code dueAt}, {@code key} (idempotency key: the task id is
 * derived from {@code (handler, key)}), {@code orderingKey} (Kafka routing key override), {@code
 * maxAttempts}, {@code timeout} (of one attempt), {@code backoff} ({@code null}: the scheduler's
 * default, Sidekiq's), {@code dependsOn} (ids of tasks that must succeed first), {@code headers}
 * and {@code options} (the optional settings, {@link TaskOptions}; never null).
 */
public final class TaskRequest {
  private static final List<String> NAMES =
      List.of(
          ("handler,payload,delay,dueAt,key,orderingKey,maxAttempts,timeout,backoff,dependsOn,"
                  + "headers,options,unique")
              .split(","));

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
  private final TaskOptions options;
  private final Duration unique;

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
    options = f.options == null ? TaskOptions.none() : f.options;
    unique = f.unique;
  }

  /** A request for {@code handler} with no payload, due now, default attempts and timeout. */
  public static TaskRequest to(String handler) {
    Fields f = new Fields();
    f.handler = handler;
    return new TaskRequest(f);
  }

  /**
   * A request for a task of {@code type} carrying {@code payload}, with the type's default
   * attempts, backoff and timeout where it has them; each can still be overridden. A payload that
   * is not an instance of the type's payload class throws {@link InvalidTaskException}.
   */
  public static <P> TaskRequest of(TaskType<P> type, P payload) {
    Objects.requireNonNull(type, "type");
    if (payload != null && !type.payloadType().isInstance(payload)) {
      throw new InvalidTaskException(
          "payload",
          "is a "
              + payload.getClass().getName()
              + "; task type "
              + type.name()
              + " takes "
              + type.payloadType().getName());
    }
    Fields f = new Fields();
    f.handler = type.name();
    f.payload = payload;
    f.maxAttempts = type.maxAttempts();
    f.backoff = type.backoff();
    f.timeout = type.timeout();
    f.orderingKey = type.orderingKeyOf(payload);
    String concurrencyKey = type.concurrencyKeyOf(payload);
    if (concurrencyKey != null || type.priority() != null) {
      f.options =
          TaskOptions.builder().concurrencyKey(concurrencyKey).priority(type.priority()).build();
    }
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

  /**
   * A unique window of {@code window} for the task's {@link #key}: while it lasts, enqueuing
   * another task of the same handler and key creates nothing and returns this task's id ({@link
   * TaskOutbox#enqueueWithResult} says so). The window starts at this enqueue, is held in the
   * application's database ({@code tasklane_unique}, written in the enqueuing transaction), and
   * outlives the scheduler's retention; the first enqueue after it ends creates a new task and a
   * new window. A unique task's id is a new UUIDv7 for each window, not {@code TaskIds.forKey}:
   * cancel it by the id the enqueue returned. Needs {@link #key}; {@code null} clears the window.
   *
   * @param window 1 s to 366 d
   * @throws io.tasklane.core.InvalidTaskException naming {@code unique} when out of range
   */
  public TaskRequest unique(Duration window) {
    if (window != null) {
      UniqueWindows.checkWindow(window);
    }
    TaskOptions kept = window == null ? options.toBuilder().uniqueUntil(null).build() : options;
    return with(
        f -> {
          f.unique = window;
          f.options = kept;
        });
  }

  /**
   * As {@link #unique(Duration)}, with a window that ends early: when the task succeeds ({@link
   * UniqueUntil#SUCCESS}) or when it ends in any way ({@link UniqueUntil#END}: "unique while
   * pending or running"). The scheduler announces the end and the relay deletes the window's row
   * (docs/outbox-lib.md, *Unique windows*); {@code window} stays the longest the key is held, also
   * when the end is never announced. Sets {@link TaskOptions#uniqueUntil()}.
   *
   * @param window 1 s to 366 d
   * @param until when the window ends early; null for its whole length
   * @throws io.tasklane.core.InvalidTaskException naming {@code unique} when {@code window} is out
   *     of range or null while {@code until} is set
   */
  public TaskRequest unique(Duration window, UniqueUntil until) {
    if (window == null && until != null) {
      throw new InvalidTaskException("unique", "is null: a window that ends early needs a length");
    }
    TaskRequest r = unique(window);
    return r.options(r.options.toBuilder().uniqueUntil(until).build());
  }

  /**
   * The task's ordered lane: tasks of this handler and key start one after another, in the order
   * their transactions committed, across retries (docs/lanes.md). Not together with {@link
   * #concurrencyKey}.
   */
  public TaskRequest orderingKey(String value) {
    return with(f -> f.orderingKey = value);
  }

  /**
   * The task's concurrency key: at most the handler's {@code max-per-key} tasks of one key run at
   * once across every worker, and a saturated handler releases waiting tasks in turn across keys
   * (docs/lanes.md). Sets {@link TaskOptions#concurrencyKey()}, keeping the other options; checked
   * by {@link TaskOutbox#enqueue}.
   */
  public TaskRequest concurrencyKey(String value) {
    return options(options.toBuilder().concurrencyKey(value).build());
  }

  /**
   * The task's priority, 0 (lowest) to 9 (highest; default 5, or its {@link TaskType}'s): when the
   * handler is saturated, its waiting tasks are released highest priority first, aged so that a
   * low-priority task is not held back more than the scheduler's {@code priority-aging} (default 5
   * min) beyond its turn in arrival order (docs/priorities.md). Sets {@link
   * TaskOptions#priority()}, keeping the other options.
   *
   * @throws io.tasklane.core.InvalidTaskException naming {@code priority} when out of range
   */
  public TaskRequest priority(int value) {
    return options(options.toBuilder().priority(value).build().validate());
  }

  /**
   * The rate limit the task's starts count against: a limit defined in the scheduler's
   * configuration ({@code tasklane.scheduler.limits.<name>.rate: 50/s}). The scheduler starts at
   * most that many tasks naming it, across every instance and partition; a task naming a limit that
   * is not defined waits until it is (docs/rate-limits.md). Replaces the handler's own {@code rate}
   * for this task. Sets {@link TaskOptions#rateLimit()}, keeping the other options.
   *
   * @throws io.tasklane.core.InvalidTaskException naming {@code rateLimit} when not a limit name
   */
  public TaskRequest rateLimit(String name) {
    return options(options.toBuilder().rateLimit(name).build().validate());
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

  /**
   * Raise a {@code wait-timeout} alert when no attempt of the task was dispatched within {@code
   * value} of its due time (1 s to 7 d); the task keeps waiting. Sets {@link
   * TaskOptions#waitTimeoutMs()}, keeping the other options.
   *
   * @throws io.tasklane.core.InvalidTaskException naming {@code waitTimeout} when out of range
   */
  public TaskRequest waitTimeout(Duration value) {
    Objects.requireNonNull(value, "waitTimeout");
    return options(options.toBuilder().waitTimeout(value).build().validate());
  }

  /**
   * The task's optional settings, replacing those set before ({@code null}: none). Checked by
   * {@link TaskOutbox#enqueue}, which names the offending option.
   */
  public TaskRequest options(TaskOptions value) {
    return with(f -> f.options = value);
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

  public TaskOptions options() {
    return options;
  }

  /** The unique window of the task's key ({@link #unique(Duration)}); null for none. */
  public Duration unique() {
    return unique;
  }

  private TaskRequest with(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return new TaskRequest(f);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskRequest r && Arrays.equals(values(), r.values());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values());
  }

  @Override
  public String toString() {
    Object[] values = values();
    var s = new StringJoiner(", ", "TaskRequest[", "]");
    for (int i = 0; i < NAMES.size(); i++) {
      s.add(NAMES.get(i) + "=" + values[i]);
    }
    return s.toString();
  }

  /** The values in the order of {@link #NAMES}, for equality and the string form. */
  private Object[] values() {
    return new Object[] {
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
      headers,
      options,
      unique
    };
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
    TaskOptions options;
    Duration unique;

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
      options = r.options;
      unique = r.unique;
    }
  }
}
