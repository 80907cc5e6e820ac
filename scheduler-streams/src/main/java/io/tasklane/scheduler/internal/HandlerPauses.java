package io.tasklane.scheduler.internal;

/**
 * Which handlers an operator paused ({@code <ns>.handler-settings}): the {@link Dispatcher} holds
 * their due tasks in the handler's queue instead of dispatching them. Read on stream threads: an
 * implementation answers from memory and never blocks ({@link HandlerSettingsStore}).
 */
public interface HandlerPauses {
  /** Nothing paused. */
  HandlerPauses NONE = handler -> false;

  boolean paused(String handler);
}
