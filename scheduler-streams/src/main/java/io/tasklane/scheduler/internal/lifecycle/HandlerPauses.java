package io.tasklane.scheduler.internal.lifecycle;

/**
 * Which handlers an operator paused ({@code <ns>.handler-settings}): the {@link Dispatcher} holds
 * their due tasks in the handler's queue instead of dispatching them. Read on stream threads: an
 * implementation answers from memory and never blocks ({@code HandlerSettingsStore}).
 */
public interface HandlerPauses {
  /** Nothing paused. */
  HandlerPauses NONE = handler -> false;

  boolean paused(String handler);
}
