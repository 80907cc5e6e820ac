package io.tasklane.core;

import java.util.HashSet;
import java.util.Map;

/**
 * Checks a task against the contract's limits. Every failure is an {@link InvalidTaskException}
 * that names the field and the limit. Stateless and thread-safe.
 */
public final class TaskValidator {
  private final TaskLimits limits;

  public TaskValidator(TaskLimits limits) {
    this.limits = limits;
  }

  /**
   * Validates {@code task}.
   *
   * @param payloadBytes the size of the encoded payload in bytes
   * @param nowMs the current time, for the due-time window
   */
  public TaskEnvelope validate(TaskEnvelope task, int payloadBytes, long nowMs) {
    Wire.checkVersion(task.v());
    TaskIds.check("id", task.id());
    HandlerNames.check(task.handler());
    if (task.key() != null
        && (task.key().isEmpty() || task.key().length() > TaskLimits.MAX_KEY_CHARS)) {
      fail("key", "must be 1 to " + TaskLimits.MAX_KEY_CHARS + " characters");
    }
    if (task.orderingKey() != null) {
      String problem = TaskOptions.laneKeyProblem(task.orderingKey());
      if (problem != null) {
        fail("orderingKey", problem);
      }
      if (task.options().concurrencyKey() != null) {
        fail(
            "concurrencyKey",
            "cannot be set with orderingKey: an ordering key is a lane of its own with a limit of"
                + " one task at a time");
      }
    }
    if (payloadBytes > limits.maxPayloadBytes()) {
      fail(
          "payload",
          "is "
              + payloadBytes
              + " bytes; the limit is "
              + limits.maxPayloadBytes()
              + " bytes (configurable up to "
              + TaskLimits.HARD_MAX_PAYLOAD_BYTES
              + ")");
    }
    if (task.dueAt() < 0) {
      fail("dueAt", task.dueAt() + " is before 1970-01-01 (epoch millis must be ≥ 0)");
    }
    if (task.dueAt() > nowMs + TaskLimits.MAX_DUE_AHEAD_MS) {
      fail("dueAt", "is more than 10 years ahead (limit " + TaskLimits.MAX_DUE_AHEAD_MS + " ms)");
    }
    if (task.maxAttempts() < TaskLimits.MIN_ATTEMPTS
        || task.maxAttempts() > TaskLimits.MAX_ATTEMPTS) {
      fail("maxAttempts", task.maxAttempts() + " is outside 1 to " + TaskLimits.MAX_ATTEMPTS);
    }
    if (task.timeoutMs() < TaskLimits.MIN_TIMEOUT_MS
        || task.timeoutMs() > TaskLimits.MAX_TIMEOUT_MS) {
      fail("timeoutMs", task.timeoutMs() + " ms is outside 1 s to 24 h (1000 to 86400000 ms)");
    }
    validateDependencies(task);
    validateHeaders(task.headers());
    task.options().validate();
    return task;
  }

  private static void validateDependencies(TaskEnvelope task) {
    if (task.dependsOn().size() > TaskLimits.MAX_DEPENDENCIES) {
      fail(
          "dependsOn",
          "names "
              + task.dependsOn().size()
              + " tasks; the limit is "
              + TaskLimits.MAX_DEPENDENCIES);
    }
    var seen = new HashSet<String>();
    for (String dep : task.dependsOn()) {
      TaskIds.check("dependsOn", dep);
      if (dep.equals(task.id())) {
        fail("dependsOn", "task " + task.id() + " depends on itself");
      }
      if (!seen.add(dep)) {
        fail("dependsOn", "names " + dep + " twice");
      }
    }
  }

  private static void validateHeaders(Map<String, String> headers) {
    if (headers.size() > TaskLimits.MAX_HEADERS) {
      fail("headers", "has " + headers.size() + " entries; the limit is " + TaskLimits.MAX_HEADERS);
    }
    headers.forEach(
        (k, val) -> {
          if (k == null || k.isEmpty() || k.length() > TaskLimits.MAX_HEADER_NAME_CHARS) {
            fail(
                "headers",
                "a header name is "
                    + (k == null ? 0 : k.length())
                    + " characters ('"
                    + abbreviate(k)
                    + "'); names must have 1 to "
                    + TaskLimits.MAX_HEADER_NAME_CHARS
                    + " characters");
          }
          if (val == null || val.length() > TaskLimits.MAX_HEADER_VALUE_CHARS) {
            fail(
                "headers",
                "entry '"
                    + k
                    + "' must have a value of at most "
                    + TaskLimits.MAX_HEADER_VALUE_CHARS
                    + " characters");
          }
        });
  }

  private static String abbreviate(String s) {
    return s == null || s.length() <= 40 ? String.valueOf(s) : s.substring(0, 40) + "…";
  }

  private static void fail(String field, String message) {
    throw new InvalidTaskException(field, message);
  }
}
