package io.tasklane.scheduler.internal.ops;

import io.tasklane.scheduler.AlertConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The {@code backlog} alert rule: the queued counts each stream task reports (its stream thread,
 * about once a second), summed per handler, raised once a handler has stayed above the threshold
 * for the sustained time ({@link #check}, on the alerts' delivery thread).
 */
final class BacklogRule {
  private final Map<Object, Map<String, Integer>> queuedByStreamTask = new ConcurrentHashMap<>();
  private final Map<String, Long> aboveSince = new HashMap<>(); // delivery thread only

  /** The handlers' queued counts of one stream task; null when the task closed. */
  void queued(Object streamTask, Map<String, Integer> queued) {
    if (queued == null) {
      queuedByStreamTask.remove(streamTask);
    } else {
      queuedByStreamTask.put(streamTask, queued);
    }
  }

  /** Hands each handler above {@code rule}'s threshold for its sustained time to {@code raise}. */
  void check(long now, AlertConfig.Backlog rule, BiConsumer<String, String> raise) {
    Map<String, Long> sums = new HashMap<>();
    for (Map<String, Integer> m : queuedByStreamTask.values()) {
      m.forEach((h, n) -> sums.merge(h, (long) n, Long::sum));
    }
    aboveSince.keySet().removeIf(h -> sums.getOrDefault(h, 0L) <= rule.threshold());
    sums.forEach(
        (h, n) -> {
          if (n <= rule.threshold()) {
            return;
          }
          long since = aboveSince.computeIfAbsent(h, x -> now);
          if (now - since >= rule.sustained().toMillis()) {
            raise.accept(
                h,
                n
                    + " tasks of handler "
                    + h
                    + " queued in the scheduler for "
                    + (now - since)
                    + " ms (threshold "
                    + rule.threshold()
                    + ")");
          }
        });
  }
}
