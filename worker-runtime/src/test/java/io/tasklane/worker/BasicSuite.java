package io.tasklane.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Shard;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Handlers of {@link WorkerRuntimeTest} (active when {@code test.suite=basic}). */
final class BasicSuite {
  private BasicSuite() {}

  /** Lines the {@code chatty} kind of the {@code outcomes} handler logs. */
  static final int CHATTY_LINES = 10_240;

  record Greeting(String name, int times) {}

  /** What the handlers observed. */
  @Singleton
  @Requires(property = "test.suite", value = "basic")
  static class Probe {
    final Map<String, Integer> runs = new ConcurrentHashMap<>();
    final AtomicInteger slowRunning = new AtomicInteger();
    final AtomicInteger slowMax = new AtomicInteger();
    final CountDownLatch releaseSlow = new CountDownLatch(1);
    final AtomicBoolean hangInterrupted = new AtomicBoolean();
    final CountDownLatch releaseStubborn = new CountDownLatch(1);
    final AtomicInteger stubbornInterrupts = new AtomicInteger();
    final AtomicBoolean stubbornReturned = new AtomicBoolean();
    final Map<String, Optional<Shard>> shards = new ConcurrentHashMap<>();

    void ran(String taskId) {
      runs.merge(taskId, 1, Integer::sum);
    }
  }

  @TaskHandler("echo")
  @Requires(property = "test.suite", value = "basic")
  static class EchoHandler implements Handler<Greeting> {
    private final Probe probe;

    EchoHandler(Probe probe) {
      this.probe = probe;
    }

    @Override
    public void handle(Greeting payload, TaskContext ctx) {
      probe.ran(ctx.taskId());
      probe.shards.put(ctx.taskId(), ctx.shard());
      ctx.log().info("hello {} x{}", payload.name(), payload.times());
    }
  }

  @Singleton
  @Requires(property = "test.suite", value = "basic")
  static class MethodHandlers {
    private final Probe probe;

    MethodHandlers(Probe probe) {
      this.probe = probe;
    }

    @TaskHandler("outcomes")
    public void outcomes(Map<String, Object> payload, TaskContext ctx) throws Exception {
      probe.ran(ctx.taskId());
      switch (String.valueOf(payload.get("kind"))) {
        case "retry" -> throw new RetryableTaskException("not yet", Duration.ofSeconds(7));
        case "permanent" -> throw new PermanentTaskException("order is gone");
        case "boom" -> throw new IllegalStateException("boom");
        case "hang" -> {
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            probe.hangInterrupted.set(true);
            throw e;
          }
        }
        case "stubborn" -> {
          boolean released = false;
          while (!released) {
            try {
              released = probe.releaseStubborn.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              probe.stubbornInterrupts.incrementAndGet(); // swallowed on purpose
            }
          }
          probe.stubbornReturned.set(true);
        }
        case "chatty" -> {
          String kb = "x".repeat(1024);
          for (int i = 0; i < CHATTY_LINES; i++) { // 10,240 lines of over 1 KiB: over 10 MB
            ctx.log().info("line {} {}", i, kb);
          }
        }
        default -> ctx.log().info("ok");
      }
    }

    @TaskHandler("slow")
    public void slow(String payload, TaskContext ctx) throws InterruptedException {
      int now = probe.slowRunning.incrementAndGet();
      probe.slowMax.accumulateAndGet(now, Math::max);
      try {
        probe.releaseSlow.await(60, TimeUnit.SECONDS);
      } finally {
        probe.slowRunning.decrementAndGet();
        probe.ran(ctx.taskId());
      }
    }

    @TaskHandler("db")
    public void db(String payload, TaskContext ctx) throws Exception {
      probe.ran(ctx.taskId());
      ctx.inTransaction(
          c -> {
            try (var ps = c.prepareStatement("INSERT INTO effects (task_id, note) VALUES (?, ?)")) {
              ps.setString(1, ctx.taskId());
              ps.setString(2, payload);
              return ps.executeUpdate();
            }
          });
    }
  }

  @Factory
  @Requires(property = "test.suite", value = "basic")
  static class Metrics {
    @Singleton
    MeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }
}
