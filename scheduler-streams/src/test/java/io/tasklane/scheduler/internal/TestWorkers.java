package io.tasklane.scheduler.internal;

import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live-worker and partition counts the test sets by hand (what the Admin cache would have seen).
 */
final class TestWorkers implements HandlerWorkers {
  final Map<String, Integer> consumers = new ConcurrentHashMap<>();
  final Map<String, Integer> partitions = new ConcurrentHashMap<>();

  @Override
  public OptionalInt liveConsumers(String handler) {
    Integer n = consumers.get(handler);
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }

  @Override
  public OptionalInt partitions(String handler) {
    Integer n = partitions.get(handler);
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }
}
