package io.tasklane.scheduler.internal.lifecycle;

import java.util.OptionalInt;

/**
 * What the scheduler knows of a handler's workers at fire time, for {@code routing: ALL_WORKERS}
 * and for spreading a fire's shards over the handler topic's partitions. Read on stream threads:
 * implementations answer from a cache and never block ({@code WorkerGroupWatcher}).
 */
public interface HandlerWorkers {
  /** Nothing known: an {@code ALL_WORKERS} fire makes one task, shards spread by task id. */
  HandlerWorkers UNKNOWN =
      new HandlerWorkers() {
        @Override
        public OptionalInt liveConsumers(String handler) {
          return OptionalInt.empty();
        }

        @Override
        public OptionalInt partitions(String handler) {
          return OptionalInt.empty();
        }
      };

  /** The members of the handler's consumer group as last seen, or empty when unknown. */
  OptionalInt liveConsumers(String handler);

  /** The partition count of the handler's topic as last seen, or empty when unknown. */
  OptionalInt partitions(String handler);

  /**
   * Whether the handler has live workers and every one of them holds a dispatch until its {@code
   * notBefore} ({@code WorkerHeartbeat.holdsDispatches}): only then are schedule fires dispatched
   * ahead of their instant. False when unknown.
   */
  default boolean holdDispatches(String handler) {
    return false;
  }
}
