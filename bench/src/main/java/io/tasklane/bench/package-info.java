/**
 * Tasklane's benchmarks: {@link io.tasklane.bench.BenchMain} (run by {@code bin/bench}) starts a
 * private local stack, the relay, the scheduler and {@link io.tasklane.bench.BenchWorkerApp} as
 * separate processes, runs the scenarios and writes {@code target/bench/results.json} and {@code
 * docs/benchmarks.md}.
 */
package io.tasklane.bench;
