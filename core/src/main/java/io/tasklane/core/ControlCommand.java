package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** The control commands besides cancel. Each is keyed by the routing key of {@code id}. */
public final class ControlCommand {
  private ControlCommand() {}

  /** DEAD → PENDING with a fresh attempt budget. */
  public record RetryDead(@JsonProperty(required = true) int v, String id, long requestedAt)
      implements ControlRecord {
    public static RetryDead of(String id, long requestedAt) {
      return new RetryDead(Wire.VERSION, id, requestedAt);
    }
  }

  /** Run a PENDING, RETRYING or NO_HANDLER task now instead of at its due time. */
  public record Trigger(@JsonProperty(required = true) int v, String id, long requestedAt)
      implements ControlRecord {
    public static Trigger of(String id, long requestedAt) {
      return new Trigger(Wire.VERSION, id, requestedAt);
    }
  }

  /** Forget a DEAD task (it is purged instead of waiting for the retention window). */
  public record Discard(@JsonProperty(required = true) int v, String id, long requestedAt)
      implements ControlRecord {
    public static Discard of(String id, long requestedAt) {
      return new Discard(Wire.VERSION, id, requestedAt);
    }
  }

  /**
   * Dependency protocol, first leg: task {@code waiterId} waits for task {@code id}. Keyed by
   * {@code id} so it reaches the partition that owns the dependency.
   */
  public record Await(
      @JsonProperty(required = true) int v, String id, String waiterId, String waiterRoutingKey)
      implements ControlRecord {
    public static Await of(String dependencyId, String waiterId, String waiterRoutingKey) {
      return new Await(Wire.VERSION, dependencyId, waiterId, waiterRoutingKey);
    }
  }

  /**
   * Dependency protocol, answer: dependency {@code dependencyId} reached terminal {@code state}.
   * Keyed by the waiter's routing key; {@code id} is the waiter.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DependencyDone(
      @JsonProperty(required = true) int v,
      String id,
      String dependencyId,
      TaskState state,
      String reason)
      implements ControlRecord {
    public static DependencyDone of(
        String waiterId, String dependencyId, TaskState state, String reason) {
      return new DependencyDone(Wire.VERSION, waiterId, dependencyId, state, reason);
    }
  }
}
