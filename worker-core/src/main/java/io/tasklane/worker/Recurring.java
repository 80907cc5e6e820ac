package io.tasklane.worker;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A recurring schedule defined in code: put it beside {@link TaskHandler} (on the class or the
 * method), or on a {@link TypedHandler} bean class, and the schedule's fires run that handler.
 * Repeatable, for several schedules of one handler (e.g. with different payloads).
 *
 * <pre>{@code
 * @TaskHandler("report.build")
 * @Recurring(name = "reports.nightly", cron = "30 2 * * *", zone = "Europe/Berlin",
 *     payload = "{\"report\":\"sales\"}")
 * class BuildReport implements Handler<ReportRef> { ... }
 * }</pre>
 *
 * <p>At start, on the start-up thread and before any handler consumes, the worker checks every
 * {@code @Recurring} with {@code ScheduleValidator} (a bad one fails start-up with a {@link
 * WorkerException} naming the handler, the schedule and the field) and publishes each definition
 * that is new or changed to {@code <ns>.tasks}, keyed by the name, with {@code origin
 * "code:<recurring.app>"} and the start time in epoch millis as its version; an unchanged one is
 * not published again. A schedule this app defined before and no longer has is disabled (a new
 * version with {@code enabled: false}), not deleted. See docs/schedules.md, "Three ways to define".
 *
 * <p>Empty strings and zero mean "the default" of the schedule model.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Repeatable(Recurring.List.class)
public @interface Recurring {
  /** The schedule's name, its identity and Kafka key: {@code [A-Za-z0-9][A-Za-z0-9._:-]{0,199}}. */
  String name();

  /** A cron expression: 5 fields (Unix), or 6–7 with seconds first; exactly one of cron, every. */
  String cron() default "";

  /** A fixed rate such as {@code 30s}, {@code 5m}, {@code 2h} (1 s to 366 d). */
  String every() default "";

  /** The time zone of {@code cron}, e.g. {@code Europe/Berlin}; default UTC. */
  String zone() default "";

  /** {@code SKIP}, {@code FIRE_ONCE}, {@code FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)} (default), ... */
  String misfire() default "";

  /** {@code ALLOW} (default), {@code SKIP_IF_RUNNING}, {@code QUEUE}, {@code REPLACE}. */
  String overlap() default "";

  /** {@code ONE}, {@code BROADCAST}, {@code ALL_WORKERS}; default ONE, or BROADCAST with shards. */
  String routing() default "";

  /** Tasks per fire for {@code BROADCAST} (1–10000); more than 1 implies BROADCAST. */
  int shards() default 1;

  /** The JSON payload of every fire, e.g. {@code {"report":"sales"}}; empty for none. */
  String payload() default "";

  /** Attempts of each fire's task (1–1000); 0 for the default, 1. */
  int maxAttempts() default 0;

  /** Timeout of one attempt such as {@code 10m} (1 s to 24 h); empty for the default, 5 min. */
  String timeout() default "";

  /**
   * The ordering key of each fire's task (routing {@code ONE} only): the fires run in that key's
   * ordered lane, one at a time and in order with the handler's other tasks of the key
   * (docs/lanes.md); empty for none. Not with {@link #concurrencyKey()}.
   */
  String orderingKey() default "";

  /**
   * The concurrency key of each fire's task (routing {@code ONE} only): the handler's {@code
   * max-per-key} counts the fires with its other tasks of the key (docs/lanes.md); empty for none.
   * Not with {@link #orderingKey()}.
   */
  String concurrencyKey() default "";

  /**
   * The priority of each fire's task, 0 (lowest) to 9 (highest); -1 for the default, 5
   * (docs/priorities.md).
   */
  int priority() default -1;

  /** {@code false} defines the schedule paused. */
  boolean enabled() default true;

  /** The container of repeated {@link Recurring} annotations. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.TYPE, ElementType.METHOD})
  @interface List {
    Recurring[] value();
  }
}
