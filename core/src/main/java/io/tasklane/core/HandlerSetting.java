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
 * @param maxPerKey the most tasks of one concurrency key that run at once, across every worker,
 *     {@code 1} to {@link #MAX_PER_KEY}; {@link #NO_LIMIT}: no limit, whatever the scheduler's
 *     configuration says; null: the scheduler's {@code handlers.<name>.max-per-key}, else no limit
 *     (docs/lanes.md)
 * @param onDead what a DEAD task does to its ordered lane: {@code BLOCK} (it waits for an operator)
 *     or {@code SKIP} (the lane moves on); null: the scheduler's {@code handlers.<name>.on-dead},
 *     else {@code BLOCK}
 * @param updatedAt epoch millis of the change
 * @param actor the name of the API token that made it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HandlerSetting(
    @JsonProperty(required = true) int v,
    String handler,
    boolean paused,
    Integer concurrency,
    Integer maxPerKey,
    String onDead,
    long updatedAt,
    String actor)
    implements Versioned {

  /** The largest concurrency a handler may be given (as {@code handlers.<name>.concurrency}). */
  public static final int MAX_CONCURRENCY = 1_000;

  /** {@code maxPerKey} of an operator who lifted the limit ({@code maxPerKey=none}). */
  public static final int NO_LIMIT = 0;

  /** The largest limit per concurrency key a handler may be given. */
  public static final int MAX_PER_KEY = 100_000;

  /** The values of {@code onDead}. */
  public static final java.util.Set<String> ON_DEAD = java.util.Set.of("BLOCK", "SKIP");

  /** The settings of a handler nobody changed. */
  public static HandlerSetting defaults(String handler) {
    return new HandlerSetting(Wire.VERSION, handler, false, null, null, null, 0, null);
  }

  public HandlerSetting withPaused(boolean p, long at, String by) {
    return new HandlerSetting(Wire.VERSION, handler, p, concurrency, maxPerKey, onDead, at, by);
  }

  public HandlerSetting withConcurrency(Integer n, long at, String by) {
    return new HandlerSetting(Wire.VERSION, handler, paused, n, maxPerKey, onDead, at, by);
  }

  /** With a limit per concurrency key ({@code null}: none) and an ordered lanes' DEAD policy. */
  public HandlerSetting withLanes(Integer perKey, String dead, long at, String by) {
    return new HandlerSetting(Wire.VERSION, handler, paused, concurrency, perKey, dead, at, by);
  }
}
