package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.Topics;
import io.tasklane.core.tracing.Tracing;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Everything the processors share besides their stores. Thread-safe.
 *
 * @param topics topic names
 * @param settings the knobs
 * @param handlerTopics which handler and DLT topics exist
 * @param metrics where counts go
 * @param random the jitter source, asked on the stream thread at each use
 * @param memory what the stream tasks of this process share (alerts, input accounting)
 * @param workers the handlers' live workers and partitions, for schedule fires
 * @param spans the admission and dispatch spans (no-ops unless tracing is configured)
 * @param controls what operators set per handler: pauses, the limit per key, the ordered lanes'
 *     DEAD policy
 * @param nanoTime the clock a punctuator tick's {@link TimerShare} is measured with ({@link
 *     System#nanoTime} but in tests)
 */
public record Engine(
    Topics topics,
    EngineSettings settings,
    HandlerTopics handlerTopics,
    SchedulerMetrics metrics,
    Supplier<RandomGenerator> random,
    TaskMemory.Shared memory,
    HandlerWorkers workers,
    TaskSpans spans,
    HandlerControls controls,
    LongSupplier nanoTime) {

  /** An engine with its own, empty memory of stream tasks, that records no spans. */
  public Engine(
      Topics topics,
      EngineSettings settings,
      HandlerTopics handlerTopics,
      SchedulerMetrics metrics,
      Supplier<RandomGenerator> random,
      HandlerWorkers workers) {
    this(
        topics,
        settings,
        handlerTopics,
        metrics,
        random,
        new TaskMemory.Shared(),
        workers,
        new TaskSpans(Tracing.off()),
        HandlerControls.NONE,
        System::nanoTime);
  }

  /** An engine with its own, empty memory of stream tasks that knows no handler's workers. */
  public Engine(
      Topics topics,
      EngineSettings settings,
      HandlerTopics handlerTopics,
      SchedulerMetrics metrics,
      Supplier<RandomGenerator> random) {
    this(topics, settings, handlerTopics, metrics, random, HandlerWorkers.UNKNOWN);
  }
}
