package io.tasklane.core;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.regex.Pattern;

/**
 * Checks schedule records against the contract's limits. Every failure is an {@link
 * InvalidTaskException} naming the field and the limit. The cron expression's syntax is checked by
 * the scheduler, which parses it. Stateless and thread-safe.
 */
public final class ScheduleValidator {
  /** The rule for schedule names. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,199}");

  /** The shortest fixed rate: 1 second. */
  public static final long MIN_EVERY_MS = 1_000L;

  /** The longest fixed rate: 366 days. */
  public static final long MAX_EVERY_MS = 366L * 86_400_000L;

  /** The longest cron expression in characters. */
  public static final int MAX_CRON_CHARS = 200;

  /** The most tasks one fire makes ({@code shards}, or live workers for {@code ALL_WORKERS}). */
  public static final int MAX_SHARDS = 10_000;

  /** The most children one schedule may name. */
  public static final int MAX_CHILDREN = 32;

  /** How deep children of children may go (a cycle of schedules stops there). */
  public static final int MAX_CHILD_DEPTH = 8;

  /**
   * Most characters of a definition's {@code origin} ({@code code:<app>}, {@code api:<actor>}…).
   */
  public static final int MAX_ORIGIN_CHARS = 200;

  /** The rule for trigger ids. */
  public static final Pattern TRIGGER_ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

  private final TaskLimits limits;

  public ScheduleValidator(TaskLimits limits) {
    this.limits = limits;
  }

  /** Validates {@code d}; {@code payloadBytes} is the size of the encoded record. */
  public ScheduleDefinition validate(ScheduleDefinition d, int payloadBytes) {
    Wire.checkVersion(d.v());
    checkName(d.name());
    checkVersion(d.version());
    HandlerNames.check(d.handler());
    if (payloadBytes > limits.maxPayloadBytes()) {
      fail("payload", "is " + payloadBytes + " bytes; the limit is " + limits.maxPayloadBytes());
    }
    if ((d.cron() == null) == (d.every() == null)) {
      fail(
          "cron",
          "set exactly one of cron and every (found "
              + (d.cron() == null ? "neither" : "both")
              + ")");
    }
    if (d.cron() != null && (d.cron().isBlank() || d.cron().length() > MAX_CRON_CHARS)) {
      fail("cron", "must have 1 to " + MAX_CRON_CHARS + " characters");
    }
    if (d.every() != null) {
      long ms = DurationText.parse("every", d.every());
      if (ms < MIN_EVERY_MS || ms > MAX_EVERY_MS) {
        fail("every", ms + " ms is outside 1 s to 366 d");
      }
    }
    try {
      ZoneId.of(d.zone());
    } catch (DateTimeException e) {
      fail(
          "zone",
          "'" + HandlerNames.abbreviate(d.zone()) + "' is not a time-zone id (e.g. Europe/Berlin)");
    }
    if (d.origin() != null && d.origin().length() > MAX_ORIGIN_CHARS) {
      fail("origin", d.origin().length() + " characters; the limit is " + MAX_ORIGIN_CHARS);
    }
    checkWindow(d);
    d.misfirePolicy();
    checkSupported(d);
    checkLaneKeys(d);
    checkPriority(d);
    if (d.maxAttempts() < TaskLimits.MIN_ATTEMPTS || d.maxAttempts() > TaskLimits.MAX_ATTEMPTS) {
      fail("maxAttempts", d.maxAttempts() + " is outside 1 to " + TaskLimits.MAX_ATTEMPTS);
    }
    if (d.timeoutMs() < TaskLimits.MIN_TIMEOUT_MS || d.timeoutMs() > TaskLimits.MAX_TIMEOUT_MS) {
      fail("timeoutMs", d.timeoutMs() + " ms is outside 1 s to 24 h (1000 to 86400000 ms)");
    }
    return d;
  }

  /** Validates an unschedule record. */
  public Unschedule validate(Unschedule u) {
    Wire.checkVersion(u.v());
    checkName(u.name());
    checkVersion(u.version());
    return u;
  }

  /** Validates a manual or child trigger. */
  public ScheduleTrigger validate(ScheduleTrigger t) {
    Wire.checkVersion(t.v());
    checkName(t.name());
    if (t.triggerId() == null || !TRIGGER_ID.matcher(t.triggerId()).matches()) {
      fail(
          "triggerId",
          (t.triggerId() == null
                  ? "is missing"
                  : "'" + HandlerNames.abbreviate(t.triggerId()) + "'")
              + "; it must match "
              + TRIGGER_ID.pattern()
              + " (1 to 100 characters)");
    }
    if (t.depth() < 0 || t.depth() > MAX_CHILD_DEPTH) {
      fail("depth", t.depth() + " is outside 0 to " + MAX_CHILD_DEPTH + " (children of children)");
    }
    if (t.parentFire() != null) {
      TaskIds.check("parentFire", t.parentFire());
      checkName(t.parent());
    }
    return t;
  }

  /** Validates a fire's finished-task notice. */
  public ScheduleFireDone validate(ScheduleFireDone f) {
    Wire.checkVersion(f.v());
    checkName(f.name());
    TaskIds.check("fireId", f.fireId());
    TaskIds.check("taskId", f.taskId());
    if (f.state() == null || !f.state().isTerminal()) {
      fail("state", f.state() + " is not terminal (SUCCEEDED, DEAD or CANCELLED)");
    }
    return f;
  }

  private static void checkChildren(ScheduleDefinition d) {
    if (d.children().size() > MAX_CHILDREN) {
      fail("children", d.children().size() + " children; the limit is " + MAX_CHILDREN);
    }
    for (String child : d.children()) {
      if (child == null || !NAME.matcher(child).matches()) {
        fail(
            "children",
            "'"
                + HandlerNames.abbreviate(String.valueOf(child))
                + "' is not a schedule name; it must match "
                + NAME.pattern());
      }
      if (child.equals(d.name())) {
        fail("children", "'" + child + "' is the schedule itself");
      }
    }
    if (new java.util.HashSet<>(d.children()).size() != d.children().size()) {
      fail("children", d.children() + " names a schedule twice");
    }
  }

  private static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      fail(
          "name",
          (name == null ? "is missing" : "'" + HandlerNames.abbreviate(name) + "' is invalid")
              + "; it must match "
              + NAME.pattern()
              + " (1 to 200 characters)");
    }
  }

  private static void checkVersion(long version) {
    if (version < 0) {
      fail("version", version + " is negative; versions are ≥ 0");
    }
  }

  private static void checkWindow(ScheduleDefinition d) {
    if (d.startAt() != null && d.startAt() < 0) {
      fail("startAt", d.startAt() + " is before 1970-01-01 (epoch millis must be ≥ 0)");
    }
    if (d.endAt() != null && d.endAt() < 0) {
      fail("endAt", d.endAt() + " is before 1970-01-01 (epoch millis must be ≥ 0)");
    }
    if (d.startAt() != null && d.endAt() != null && d.endAt() <= d.startAt()) {
      fail("endAt", d.endAt() + " is not after startAt " + d.startAt());
    }
  }

  private static void checkSupported(ScheduleDefinition d) {
    checkChildren(d);
    if (d.shards() < 1 || d.shards() > MAX_SHARDS) {
      fail("shards", d.shards() + " is outside 1 to " + MAX_SHARDS);
    }
    if (d.routing() != ScheduleDefinition.Routing.BROADCAST && d.shards() != 1) {
      fail(
          "shards",
          d.shards()
              + " shards need routing BROADCAST (routing "
              + d.routing()
              + (d.routing() == ScheduleDefinition.Routing.ONE
                  ? " makes 1 task per fire)"
                  : " counts the handler's live workers at each fire)"));
    }
  }

  /**
   * The lane keys of a fire's task: each as a task's (1 to {@link TaskLimits#MAX_KEY_CHARS}
   * characters, no control character), not both, and only for routing {@code ONE}.
   */
  private static void checkLaneKeys(ScheduleDefinition d) {
    checkLaneKey(d, "orderingKey", d.orderingKey());
    checkLaneKey(d, "concurrencyKey", d.concurrencyKey());
    if (d.orderingKey() != null && d.concurrencyKey() != null) {
      fail(
          "concurrencyKey",
          "cannot be set with orderingKey: an ordering key is a lane of its own with a limit of"
              + " one task at a time");
    }
  }

  private static void checkPriority(ScheduleDefinition d) {
    String problem = d.priority() == null ? null : TaskOptions.priorityProblem(d.priority());
    if (problem != null) {
      fail("priority", problem);
    }
  }

  private static void checkLaneKey(ScheduleDefinition d, String field, String key) {
    if (key == null) {
      return;
    }
    String problem = TaskOptions.laneKeyProblem(key);
    if (problem != null) {
      fail(field, problem);
    }
    if (d.routing() != ScheduleDefinition.Routing.ONE) {
      fail(
          field,
          "needs routing ONE: routing "
              + d.routing()
              + " spreads a fire's tasks over the partitions, each routed by a key of its own");
    }
  }

  private static void fail(String field, String message) {
    throw new InvalidTaskException(field, message);
  }
}
