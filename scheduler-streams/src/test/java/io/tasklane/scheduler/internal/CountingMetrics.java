package io.tasklane.scheduler.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Metrics a test can read back. */
final class CountingMetrics implements SchedulerMetrics {
  final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  final List<Long> lateness = new CopyOnWriteArrayList<>();
  final AtomicLong scans = new AtomicLong();

  @Override
  public void count(String event) {
    counts.computeIfAbsent(event, k -> new AtomicLong()).incrementAndGet();
  }

  @Override
  public void dispatched(long latenessMs) {
    lateness.add(latenessMs);
  }

  /** Counted as {@code dlt.<source>.<reason>}. */
  @Override
  public void deadLettered(String source, String reason) {
    count("dlt." + source + "." + reason);
  }

  @Override
  public void scanned(long nanos, int entries) {
    scans.incrementAndGet();
  }

  long get(String event) {
    AtomicLong n = counts.get(event);
    return n == null ? 0 : n.get();
  }
}
