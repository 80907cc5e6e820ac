package io.tasklane.scheduler.internal;

import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.SchedulerMetrics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Metrics a test can read back. */
public final class CountingMetrics implements SchedulerMetrics {
  final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  public final List<Long> lateness = new CopyOnWriteArrayList<>();
  final AtomicLong scans = new AtomicLong();

  @Override
  public void count(SchedulerEvent event) {
    add(event.tag());
  }

  @Override
  public void dispatched(long latenessMs) {
    lateness.add(latenessMs);
  }

  /** Counted as {@code dlt.<source>.<reason>}. */
  @Override
  public void deadLettered(String source, String reason) {
    add("dlt." + source + "." + reason);
  }

  @Override
  public void scanned(long nanos, int entries) {
    scans.incrementAndGet();
  }

  private void add(String key) {
    counts.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
  }

  public long get(SchedulerEvent event) {
    return get(event.tag());
  }

  /** The count of an event by its exported tag, or of {@code dlt.<source>.<reason>}. */
  public long get(String event) {
    AtomicLong n = counts.get(event);
    return n == null ? 0 : n.get();
  }
}
