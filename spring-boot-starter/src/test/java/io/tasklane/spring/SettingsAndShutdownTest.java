package io.tasklane.spring;

import static io.tasklane.spring.KafkaFixture.dispatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.spring.internal.SpringWorker;
import io.tasklane.spring.workerapp.Greeter;
import io.tasklane.spring.workerapp.WorkerApp;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The worker's settings on Spring follow the Micronaut worker's rules (unknown keys refused, {@code
 * enabled=false} honoured), and closing the context drains the running attempt.
 */
@TasklaneStack
class SettingsAndShutdownTest {
  private static TestDatabases db;
  private static KafkaFixture kafka;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    db = new TestDatabases(stack);
    kafka = new KafkaFixture(stack, List.of("greet", "wave", "slow", "order.label"));
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void anUnknownWorkerKeyIsRefusedAsOnMicronaut() {
    List<String> props = new java.util.ArrayList<>(List.of(kafka.workerProperties()));
    props.add("tasklane.worker.concurrencyy=4");
    assertThatThrownBy(() -> db.run(WorkerApp.class, props.toArray(String[]::new)).close())
        .hasStackTraceContaining("tasklane.worker.concurrencyy");
  }

  @Test
  void anInvalidValueIsRefusedByTheSameValidation() {
    List<String> props = new java.util.ArrayList<>(List.of(kafka.workerProperties()));
    props.add("tasklane.worker.concurrency=0");
    assertThatThrownBy(() -> db.run(WorkerApp.class, props.toArray(String[]::new)).close())
        .hasStackTraceContaining("concurrency");
  }

  @Test
  void enabledFalseLeavesTheOutboxWithoutAWorker() {
    try (ConfigurableApplicationContext ctx =
        db.run(WorkerApp.class, "tasklane.worker.enabled=false")) {
      assertThat(ctx.getBeansOfType(SpringWorker.class)).isEmpty();
      assertThat(ctx.getBeansOfType(TaskOutbox.class)).hasSize(1);
    }
  }

  @Test
  void closingTheContextDrainsTheRunningAttempt() throws Exception {
    ConfigurableApplicationContext ctx = db.run(WorkerApp.class, kafka.workerProperties());
    Greeter greeter = ctx.getBean(Greeter.class);
    Dispatch d = dispatch("slow", "zoe");
    kafka.send(d);
    assertThat(greeter.slowStarted.tryAcquire(30, TimeUnit.SECONDS)).isTrue();

    ctx.close(); // blocks while the attempt finishes and its result is published

    assertThat(greeter.greeted).containsEntry(d.task().id(), "hello slow zoe");
    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
  }
}
