package io.tasklane.worker.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import java.time.Clock;

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
        TaskEnvelope.builder()
            .id(id)
            .handler(handler)
            .payload(json)
            .dueAt(now)
            .maxAttempts(3)
            .timeoutMs(timeoutMs)
            .createdAt(now)
            .build();
    return Dispatch.of(task, 1, now + timeoutMs + 600_000, now);
  }

  /** Attempt {@code attempt} of the task of {@code first}, as the scheduler dispatches a retry. */
  public static Dispatch retry(Dispatch first, int attempt) {
    long now = System.currentTimeMillis();
    return Dispatch.of(first.task(), attempt, now + first.task().timeoutMs() + 600_000, now);
  }
}
