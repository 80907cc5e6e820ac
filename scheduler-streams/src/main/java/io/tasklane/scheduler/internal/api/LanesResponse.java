package io.tasklane.scheduler.internal.api;

import io.tasklane.core.TaskState;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/handlers/{name}/lanes} (schema {@code HandlerLanes} in {@code openapi.yml}), also
 * a forwarded read's local part ({@code maxPerKey} and {@code onDead} null, {@code partial} false).
 *
 * @param handler the handler
 * @param maxPerKey its limit per concurrency key, null when unlimited
 * @param onDead what a DEAD task does to its ordered lane
 * @param lanes its lanes that hold or queue a task
 * @param active those held by a task
 * @param blocked the ordered lanes a DEAD task holds
 * @param waiting the tasks waiting in them
 * @param top the lanes that matter most: blocked first, then the most tasks waiting
 * @param partial whether an instance did not answer
 * @param missing the instances that did not answer
 */
public record LanesResponse(
    String handler,
    Integer maxPerKey,
    String onDead,
    long lanes,
    long active,
    long blocked,
    long waiting,
    List<Lane> top,
    boolean partial,
    List<String> missing) {

  /** One lane: its key and kind, its holders with their states, its waiting tasks. */
  public record Lane(
      String key,
      String kind,
      Map<String, TaskState> holders,
      int waiting,
      String head,
      boolean blocked) {}
}
