package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Cancel task {@code id}. Written to the outbox in the application's transaction (so "order paid"
 * and "cancel its auto-cancel task" commit together) or sent to {@code tasklane.control} by an
 * operator. A cancel that arrives before its task is remembered and wins when the task comes.
 *
 * @param v wire version
 * @param id the task to cancel
 * @param reason free text shown in the console, may be null
 * @param requestedAt epoch millis of the request
 * @param actor who sent it (an operator's API token name), null from the outbox; absent from the
 *     JSON when null
 * @param handler the task's handler when the cancel named the task by {@link TaskKey} (so a reader
 *     of the topic sees which task it is without deriving ids); absent when unknown
 * @param key the task's idempotency key, with {@code handler}; absent when unknown
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CancelCommand(
    @JsonProperty(required = true) int v,
    String id,
    String reason,
    long requestedAt,
    String actor,
    String handler,
    String key)
    implements TaskTopicRecord, ControlRecord {

  public static CancelCommand of(String id, String reason, long requestedAt) {
    return of(id, reason, requestedAt, null);
  }

  /** As {@link #of(String, String, long)}, naming who sent it. */
  public static CancelCommand of(String id, String reason, long requestedAt, String actor) {
    return new CancelCommand(Wire.VERSION, id, reason, requestedAt, actor, null, null);
  }

  /** This cancel naming the task's handler and key too (either may be null when unknown). */
  public CancelCommand withTask(String handler, String key) {
    return new CancelCommand(v, id, reason, requestedAt, actor, handler, key);
  }
}
