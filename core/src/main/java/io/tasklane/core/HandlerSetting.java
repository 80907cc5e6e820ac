package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An operator's settings of one handler, on the compacted {@code <ns>.handler-settings} keyed by
 * the handler name; written by the scheduler's API, read by every scheduler instance (dispatch
 * holds a paused handler's due tasks) and every worker (its pool for the handler takes {@code
 * concurrency} without a restart).
 *
 * @param v wire version
 * @param handler handler name
 * @param paused the scheduler holds the handler's due tasks instead of dispatching them
 * @param concurrency threads of each worker's pool for the handler, {@code 1} to {@link
 *     #MAX_CONCURRENCY}; null: each worker's configured value
 * @param updatedAt epoch millis of the change
 * @param actor the name of the API token that made it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HandlerSetting(
    @JsonProperty(required = true) int v,
    String handler,
    boolean paused,
    Integer concurrency,
    long updatedAt,
    String actor)
    implements Versioned {

  /** The largest concurrency a handler may be given (as {@code handlers.<name>.concurrency}). */
  public static final int MAX_CONCURRENCY = 1_000;

  /** The settings of a handler nobody changed. */
  public static HandlerSetting defaults(String handler) {
    return new HandlerSetting(Wire.VERSION, handler, false, null, 0, null);
  }

  public HandlerSetting withPaused(boolean p, long at, String by) {
    return new HandlerSetting(Wire.VERSION, handler, p, concurrency, at, by);
  }

  public HandlerSetting withConcurrency(Integer n, long at, String by) {
    return new HandlerSetting(Wire.VERSION, handler, paused, n, at, by);
  }
}
