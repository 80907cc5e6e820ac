package io.tasklane.scheduler.internal.lifecycle;

/**
 * What operators set per handler that dispatch obeys ({@code <ns>.handler-settings}): a pause (the
 * {@link Dispatcher} holds the handler's due tasks in its queue instead of dispatching them), the
 * most tasks of one concurrency key that may run at once, what a DEAD task does to its ordered lane
 * ({@link Lanes}) and the turns of a lane when the handler is saturated. Read on stream threads: an
 * implementation answers from memory and never blocks ({@code HandlerSettingsStore}).
 */
@FunctionalInterface
public interface HandlerControls {
  /** No limit per key. */
  int UNLIMITED = Integer.MAX_VALUE;

  /** Nothing paused, no limit per key, DEAD tasks block their ordered lane. */
  HandlerControls NONE = handler -> false;

  boolean paused(String handler);

  /**
   * The most tasks of one concurrency key of {@code handler} that may run at once, {@link
   * #UNLIMITED} when none is set.
   */
  default int maxPerKey(String handler) {
    return UNLIMITED;
  }

  /**
   * The turns per round of the lane of {@code key} of a saturated {@code handler} ({@link
   * LaneTurns}), 1 or more.
   */
  default int weight(String handler, String key) {
    return 1;
  }

  /**
   * The rate limit {@code limit} names (a limit's name, or {@code handler/} and a handler's name:
   * {@link io.tasklane.core.ControlCommand.RateAsk#limit}), or null when none is defined.
   */
  default RateSpacing rate(String limit) {
    return null;
  }

  /** Whether {@code handler} has a rate of its own ({@code handlers.<name>.rate}). */
  default boolean handlerLimited(String handler) {
    return false;
  }

  /** What a DEAD task of {@code handler} does to its ordered lane. */
  default LanePolicy onDead(String handler) {
    return LanePolicy.BLOCK;
  }
}
