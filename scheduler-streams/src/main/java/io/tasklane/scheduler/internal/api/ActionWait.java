package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.Durations;
import java.time.Clock;
import java.time.Duration;

/**
 * The outcome of an operator command on one task: after the command is written, polls the task's
 * status ({@link StatusQuery}, every {@link #POLL_MS} ms) until it shows the command applied, or a
 * state that makes it a no-op (someone else's change won the race: ignored), or the {@code ?wait=}
 * bound passes (pending). Runs on Micronaut's blocking executor; time from the injected {@link
 * Clock}.
 */
final class ActionWait {
  /** {@code ?wait=} when not given. */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

  /** The largest {@code ?wait=}. */
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  static final long POLL_MS = 100;

  /** A {@code ?wait=} that is not a duration between 0 and {@link #MAX_WAIT}. */
  static final class BadWait extends IllegalArgumentException {
    BadWait(String message) {
      super(message);
    }
  }

  private final StatusQuery query;
  private final Clock clock;

  ActionWait(StatusQuery query, Clock clock) {
    this.query = query;
    this.clock = clock;
  }

  /** The bound {@code text} asks for; throws {@link BadWait} naming the parameter and the limit. */
  static Duration parseWait(String text) {
    if (text == null) {
      return DEFAULT_WAIT;
    }
    Duration d;
    try {
      d = Durations.parse("wait", text);
    } catch (ConfigException e) {
      throw new BadWait("wait: '" + text + "' is not a duration: write " + Durations.FORMS);
    }
    if (d.isNegative() || d.compareTo(MAX_WAIT) > 0) {
      throw new BadWait("wait: " + text + " is outside 0s..30s (the largest wait is 30s)");
    }
    return d;
  }

  /** The JSON of a task status answer, or null when it is not one. */
  static JsonNode task(StatusQuery.Answer a) {
    return a.status() == 200 ? WireCodec.readTree(a.json()) : null;
  }

  /**
   * Polls until {@code action}, written for the task that read as {@code before}, shows, and
   * answers its outcome.
   */
  TaskActionResponse await(
      TaskAction action, String id, String routingKey, JsonNode before, Duration wait) {
    long deadline = clock.millis() + wait.toMillis();
    while (true) {
      StatusQuery.Answer a = query.find(id, routingKey, false);
      JsonNode after = task(a);
      if (action.applied(before, a.status(), after)) {
        return TaskActionResponse.of(id, action, TaskActionResponse.APPLIED, null, after);
      }
      String noOp = after == null ? null : action.noOp(after);
      if (noOp != null && !after.path("updatedAt").equals(before.path("updatedAt"))) {
        return TaskActionResponse.of(id, action, TaskActionResponse.IGNORED, noOp, after);
      }
      long left = deadline - clock.millis();
      if (left <= 0) {
        return TaskActionResponse.pending(id, action);
      }
      try {
        Thread.sleep(Math.min(POLL_MS, left));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return TaskActionResponse.pending(id, action);
      }
    }
  }
}
