package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.internal.batches.BatchState;

/**
 * {@code GET /api/batches/{id}}: a batch's members by state, its progress and its callbacks
 * (docs/batches.md). Immutable.
 *
 * @param id the batch's id
 * @param state {@code OPEN} (members may still be added), {@code RUNNING} (sealed, members
 *     pending), {@code COMPLETE} (every member terminal, not all SUCCEEDED) or {@code SUCCEEDED}
 * @param sealed whether the batch is sealed
 * @param total members
 * @param pending members not yet terminal
 * @param succeeded members SUCCEEDED
 * @param dead members DEAD
 * @param cancelled members CANCELLED
 * @param progress terminal members in percent of all (100 for a sealed batch without members)
 * @param createdAt when its first record arrived (epoch millis)
 * @param createdAtIso the same in ISO-8601 UTC
 * @param sealedAt when it was sealed, or null
 * @param sealedAtIso the same in ISO-8601 UTC
 * @param completedAt when every member was terminal, or null
 * @param completedAtIso the same in ISO-8601 UTC
 * @param succeededAt when every member SUCCEEDED, or null
 * @param succeededAtIso the same in ISO-8601 UTC
 * @param onSuccess the handler of the onSuccess callback, or null
 * @param onComplete the handler of the onComplete callback, or null
 * @param successTask the id of the onSuccess task made, or null
 * @param completeTask the id of the onComplete task made, or null
 * @param successTaskRoutingKey the routing key to find the onSuccess task under when it has an
 *     ordering or concurrency key, else null
 * @param completeTaskRoutingKey the same for the onComplete task
 * @param lateParts parts refused because they came after the seal
 */
public record BatchResponse(
    String id,
    String state,
    boolean sealed,
    long total,
    long pending,
    long succeeded,
    long dead,
    long cancelled,
    int progress,
    long createdAt,
    String createdAtIso,
    Long sealedAt,
    String sealedAtIso,
    Long completedAt,
    String completedAtIso,
    Long succeededAt,
    String succeededAtIso,
    String onSuccess,
    String onComplete,
    String successTask,
    String completeTask,
    String successTaskRoutingKey,
    String completeTaskRoutingKey,
    long lateParts) {

  static BatchResponse of(BatchState s) {
    long terminal = s.succeeded + s.dead + s.cancelled;
    int progress =
        s.total == 0 ? (s.sealed ? 100 : 0) : (int) Math.min(100, terminal * 100 / s.total);
    String state =
        !s.sealed
            ? "OPEN"
            : s.succeededAt != null ? "SUCCEEDED" : s.completedAt != null ? "COMPLETE" : "RUNNING";
    return new BatchResponse(
        s.batch,
        state,
        s.sealed,
        s.total,
        s.counts().pending(),
        s.succeeded,
        s.dead,
        s.cancelled,
        progress,
        s.createdAt,
        HandlerResponse.iso(s.createdAt),
        s.sealedAt,
        iso(s.sealedAt),
        s.completedAt,
        iso(s.completedAt),
        s.succeededAt,
        iso(s.succeededAt),
        s.successHandler(),
        s.completeHandler(),
        s.successTask,
        s.completeTask,
        s.successTaskKey,
        s.completeTaskKey,
        s.lateParts);
  }

  private static String iso(Long at) {
    return at == null ? null : HandlerResponse.iso(at);
  }
}
