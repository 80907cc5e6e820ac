package io.tasklane.scheduler.internal.lifecycle;

import java.util.Map;

/**
 * What the task lifecycle tells the alert rules as tasks move ({@code Alerts} implements it): the
 * lifecycle owns this vocabulary, the alerting observes it. Called on the stream thread of the
 * task's partition; an implementation never blocks.
 */
public interface AlertSignals {
  /** Tells nothing. */
  AlertSignals NONE =
      new AlertSignals() {
        @Override
        public void dead(String handler, String id, String reason) {}

        @Override
        public void dispatched(String handler, String id) {}

        @Override
        public void waitTimedOut(String handler, String id, long waitMs) {}

        @Override
        public void admitted(String id, long lagMs) {}

        @Override
        public void queued(Object streamTask, Map<String, Integer> queued) {}
      };

  /** Task {@code id} of {@code handler} went DEAD for {@code reason}. */
  void dead(String handler, String id, String reason);

  /** Task {@code id} of {@code handler} was dispatched. */
  void dispatched(String handler, String id);

  /** Task {@code id} was not dispatched within its wait timeout of {@code waitMs}. */
  void waitTimedOut(String handler, String id, long waitMs);

  /** Task {@code id} was admitted {@code lagMs} after its {@code createdAt}. */
  void admitted(String id, long lagMs);

  /** The handlers' queued counts of one stream task (about once a second); null when it closed. */
  void queued(Object streamTask, Map<String, Integer> queued);
}
