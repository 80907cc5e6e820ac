package io.tasklane.worker;

import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Handlers of {@link OperatorApiTest} (active when {@code test.suite=operator}). */
final class OperatorSuite {
  private OperatorSuite() {}

  /** What the handlers observed. */
  @Singleton
  @Requires(property = "test.suite", value = "operator")
  static class Probe {
    final Set<String> started = ConcurrentHashMap.newKeySet();
    final Set<String> interrupted = ConcurrentHashMap.newKeySet();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger maxRunning = new AtomicInteger();
    final CountDownLatch release = new CountDownLatch(1);
    final Set<String> quick = ConcurrentHashMap.newKeySet();
    final Set<String> other = ConcurrentHashMap.newKeySet();
  }

  /** Notes each task it runs. */
  @TaskHandler("quick")
  @Requires(property = "test.suite", value = "operator")
  static class QuickHandler implements Handler<Object> {
    private final Probe probe;

    QuickHandler(Probe probe) {
      this.probe = probe;
    }

    @Override
    public void handle(Object payload, TaskContext ctx) {
      probe.quick.add(ctx.taskId());
    }
  }

  /** Notes each task it runs. */
  @TaskHandler("other")
  @Requires(property = "test.suite", value = "operator")
  static class OtherHandler implements Handler<Object> {
    private final Probe probe;

    OtherHandler(Probe probe) {
      this.probe = probe;
    }

    @Override
    public void handle(Object payload, TaskContext ctx) {
      probe.other.add(ctx.taskId());
    }
  }

  /** Refuses every task for good: each goes DEAD after its first attempt. */
  @TaskHandler("doomed")
  @Requires(property = "test.suite", value = "operator")
  static class DoomedHandler implements Handler<Object> {
    @Override
    public void handle(Object payload, TaskContext ctx) {
      throw new PermanentTaskException("refused for good");
    }
  }

  /** Runs until released, counting how many run at once. */
  @TaskHandler("parallel")
  @Requires(property = "test.suite", value = "operator")
  static class ParallelHandler implements Handler<Object> {
    private final Probe probe;

    ParallelHandler(Probe probe) {
      this.probe = probe;
    }

    @Override
    public void handle(Object payload, TaskContext ctx) throws Exception {
      int now = probe.running.incrementAndGet();
      probe.maxRunning.accumulateAndGet(now, Math::max);
      try {
        probe.release.await(2, TimeUnit.MINUTES);
      } finally {
        probe.running.decrementAndGet();
      }
    }
  }

  /** Blocks until interrupted (or five minutes pass), noting both. */
  @TaskHandler("blocking")
  @Requires(property = "test.suite", value = "operator")
  static class BlockingHandler implements Handler<Object> {
    private final Probe probe;

    BlockingHandler(Probe probe) {
      this.probe = probe;
    }

    @Override
    public void handle(Object payload, TaskContext ctx) throws Exception {
      probe.started.add(ctx.taskId());
      try {
        new CountDownLatch(1).await(5, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        probe.interrupted.add(ctx.taskId());
        throw e;
      }
    }
  }
}
