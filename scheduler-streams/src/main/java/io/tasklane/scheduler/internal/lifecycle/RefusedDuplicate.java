package io.tasklane.scheduler.internal.lifecycle;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import java.util.Objects;

/**
 * The last record on {@code tasks} that reused a stored task's id with different content and was
 * refused (the first record of an id wins). Shown in the status API next to {@code
 * duplicatesRefused}.
 *
 * @param refusedAt epoch millis the scheduler refused it (its clock)
 * @param createdAt the refused record's {@code createdAt} (the producer's clock)
 * @param source the outbox row that carried it, or null
 * @param handler its handler
 * @param dueAt its due time
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RefusedDuplicate(
    long refusedAt, long createdAt, Source source, String handler, long dueAt) {

  static RefusedDuplicate of(TaskEnvelope refused, long now) {
    return new RefusedDuplicate(
        now, refused.createdAt(), refused.source(), refused.handler(), refused.dueAt());
  }

  /**
   * Whether {@code b} asks for something else than {@code a}: another handler, key, ordering key,
   * payload, due time, attempt budget, timeout, backoff, dependencies, shard or options. {@code
   * createdAt}, {@code source} and {@code headers} (a trace context) are not compared: a relay
   * replay or the same keyed task enqueued again with the same data is a plain duplicate.
   */
  static boolean conflicts(TaskEnvelope a, TaskEnvelope b) {
    return !(Objects.equals(a.handler(), b.handler())
        && Objects.equals(a.key(), b.key())
        && Objects.equals(a.orderingKey(), b.orderingKey())
        && Objects.equals(a.payload(), b.payload())
        && a.dueAt() == b.dueAt()
        && a.maxAttempts() == b.maxAttempts()
        && a.timeoutMs() == b.timeoutMs()
        && Objects.equals(a.backoff(), b.backoff())
        && Objects.equals(a.dependsOn(), b.dependsOn())
        && Objects.equals(a.shard(), b.shard())
        && Objects.equals(a.options(), b.options()));
  }
}
