package io.tasklane.worker.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.Wire;
import io.tasklane.core.WireCodec;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** Builds dispatches as the scheduler would. */
public final class Dispatches {
  private Dispatches() {}

  public static Dispatch of(String handler, Object payload, long timeoutMs) {
    return of(TaskIds.keyless(Clock.systemUTC()), handler, payload, timeoutMs);
  }

  public static Dispatch of(String id, String handler, Object payload, long timeoutMs) {
    long now = System.currentTimeMillis();
    JsonNode json = WireCodec.mapper().valueToTree(payload);
    TaskEnvelope task =
        new TaskEnvelope(
            Wire.VERSION,
            id,
            handler,
            null,
            null,
            json,
            now,
            3,
            timeoutMs,
            null,
            List.of(),
            Map.of(),
            now,
            null,
            null);
    return Dispatch.of(task, 1, now + timeoutMs + 600_000, now);
  }

  /** Attempt {@code attempt} of the task of {@code first}, as the scheduler dispatches a retry. */
  public static Dispatch retry(Dispatch first, int attempt) {
    long now = System.currentTimeMillis();
    return Dispatch.of(first.task(), attempt, now + first.task().timeoutMs() + 600_000, now);
  }
}
