package io.tasklane.worker.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tasklane.core.Outcome;
import io.tasklane.worker.spi.WorkerMetrics;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Micrometer meters per handler (tag {@code handler}): {@code tasklane.worker.tasks.started},
 * {@code tasklane.worker.tasks.finished} (tag {@code outcome}), {@code
 * tasklane.worker.tasks.timed.out}, {@code tasklane.worker.tasks.dead.lettered}, {@code
 * tasklane.worker.tasks.duplicates}, timer {@code tasklane.worker.task.duration} (histogram),
 * gauges {@code tasklane.worker.in.flight}, {@code tasklane.worker.pool.saturation} (busy threads /
 * concurrency) and {@code tasklane.worker.consumer.lag}. The framework adapter creates it when the
 * application has a MeterRegistry. Meters are registered on the consumer threads as handlers start;
 * events arrive from pool, timer and producer threads.
 */
public final class MicrometerWorkerMetrics implements WorkerMetrics {
  private final MeterRegistry registry;

  public MicrometerWorkerMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public HandlerMetrics forHandler(String handler, Gauges gauges) {
    Gauge.builder("tasklane.worker.in.flight", gauges, Gauges::inFlight)
        .tag("handler", handler)
        .register(registry);
    Gauge.builder(
            "tasklane.worker.pool.saturation",
            gauges,
            g -> (double) g.busyThreads() / g.concurrency())
        .tag("handler", handler)
        .register(registry);
    Gauge.builder("tasklane.worker.consumer.lag", gauges, Gauges::lag)
        .tag("handler", handler)
        .register(registry);
    Counter started = counter("tasklane.worker.tasks.started", handler);
    Counter timedOut = counter("tasklane.worker.tasks.timed.out", handler);
    Counter dead = counter("tasklane.worker.tasks.dead.lettered", handler);
    Counter duplicates = counter("tasklane.worker.tasks.duplicates", handler);
    Counter truncated = counter("tasklane.worker.dead.letters.truncated", handler);
    Counter dropped = counter("tasklane.worker.publish.dropped", handler);
    Map<Outcome, Counter> finished = new EnumMap<>(Outcome.class);
    for (Outcome o : Outcome.values()) {
      finished.put(
          o,
          Counter.builder("tasklane.worker.tasks.finished")
              .tag("handler", handler)
              .tag("outcome", o.name())
              .register(registry));
    }
    Timer duration =
        Timer.builder("tasklane.worker.task.duration")
            .tag("handler", handler)
            .publishPercentileHistogram()
            .register(registry);
    return new HandlerMetrics() {
      @Override
      public void started() {
        started.increment();
      }

      @Override
      public void finished(Outcome outcome, long nanos) {
        finished.get(outcome).increment();
        duration.record(nanos, TimeUnit.NANOSECONDS);
      }

      @Override
      public void timedOut() {
        timedOut.increment();
      }

      @Override
      public void deadLettered() {
        dead.increment();
      }

      @Override
      public void duplicateSkipped() {
        duplicates.increment();
      }

      @Override
      public void deadLetterTruncated() {
        truncated.increment();
      }

      @Override
      public void publishDropped() {
        dropped.increment();
      }
    };
  }

  private Counter counter(String name, String handler) {
    return Counter.builder(name).tag("handler", handler).register(registry);
  }
}
