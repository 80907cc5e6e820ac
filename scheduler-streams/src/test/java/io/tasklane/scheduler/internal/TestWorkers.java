package io.tasklane.scheduler.internal;

import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live-worker and partition counts, and the handlers whose workers hold dispatches sent ahead, as
 * the test sets them by hand (what the Admin cache and the heartbeats would have shown).
 */
public final class TestWorkers implements HandlerWorkers {
  public final Map<String, Integer> consumers = new ConcurrentHashMap<>();
  public final Map<String, Integer> partitions = new ConcurrentHashMap<>();
  public final Set<String> holding = ConcurrentHashMap.newKeySet();

  @Override
  public OptionalInt liveConsumers(String handler) {
    Integer n = consumers.get(handler);
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }

  @Override
  public boolean holdDispatches(String handler) {
    return holding.contains(handler);
  }

  @Override
  public OptionalInt partitions(String handler) {
    Integer n = partitions.get(handler);
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }
}
