package io.tasklane.bench;

import io.micronaut.runtime.Micronaut;

/**
 * The benchmark's worker: a Micronaut app with one handler, {@value NoopHandler#NAME}, that does
 * nothing. Start it with {@code tasklane.worker.*} system properties; no data source is configured,
 * so the worker runs without an idempotency store (raw throughput). The handler start time that the
 * benchmarks use is the {@code startedAt} of the handler's {@code TaskResult}.
 */
public final class BenchWorkerApp {
  private BenchWorkerApp() {}

  public static void main(String[] args) {
    Micronaut.build(args).mainClass(BenchWorkerApp.class).start();
  }
}
