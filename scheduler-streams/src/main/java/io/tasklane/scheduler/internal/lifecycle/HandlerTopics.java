package io.tasklane.scheduler.internal.lifecycle;

/**
 * Which handler topics exist. The punctuator dispatches only to existing topics: producing to a
 * missing topic would block the stream thread's producer and can kill the thread. Called from
 * stream threads; implementations are thread-safe and never block.
 */
public interface HandlerTopics {
  /** True when {@code topic} is known to exist. */
  boolean exists(String topic);
}
