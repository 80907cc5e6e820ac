package io.tasklane.spring;

import static io.tasklane.spring.KafkaFixture.dispatch;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.spring.internal.SpringWorker;
import io.tasklane.spring.workerapp.Greeter;
import io.tasklane.spring.workerapp.WorkerApp;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.JdbcIdempotencyStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The auto-configured worker runs Spring handler beans on the shared stack: a dispatch produced to
 * the handler's topic runs the handler (which injects Spring beans), its JdbcTemplate write and the
 * idempotency mark commit together in a Spring transaction, and the result reaches the results
 * topic; a handler that throws rolls both back.
 */
@TasklaneStack
class WorkerAutoConfigurationTest {
  private static TestDatabases db;
  private static KafkaFixture kafka;
  private static ConfigurableApplicationContext ctx;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    db = new TestDatabases(stack);
    kafka = new KafkaFixture(stack, List.of("greet", "wave", "order.label"));
    ctx = db.run(WorkerApp.class, kafka.workerProperties());
  }

  @AfterAll
  static void stop() {
    if (ctx != null) {
      SpringWorker worker = ctx.getBean(SpringWorker.class);
      assertThat(worker.isRunning()).isTrue();
      ctx.close();
      assertThat(worker.isRunning()).isFalse();
      assertThat(worker.runtime().state()).isEqualTo("STOPPED");
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void aClassHandlerBeanRunsInASpringTransactionWithItsIdempotencyMark() throws Exception {
    Dispatch d = dispatch("greet", "ada");
    kafka.send(d);

    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ctx.getBean(Greeter.class).greeted).containsEntry(d.task().id(), "hello ada");
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE item = ?", "hello ada")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM tasklane_processed WHERE task_id = ?", d.task().id()))
        .isEqualTo(1);
    assertThat(ctx.getBean(JdbcIdempotencyStore.class).isProcessed(d.task().id())).isTrue();

    MeterRegistry meters = ctx.getBean(MeterRegistry.class);
    assertThat(
            meters.get("tasklane.worker.tasks.started").tag("handler", "greet").counter().count())
        .isGreaterThanOrEqualTo(1);
    CompositeHealthContributor health =
        (CompositeHealthContributor) ctx.getBean("tasklaneWorkerHealthContributor");
    HealthIndicator handlers = (HealthIndicator) health.getContributor("tasklane-worker-handlers");
    assertThat(handlers.health().getStatus()).isEqualTo(Status.UP);
    HealthIndicator consumers =
        (HealthIndicator) health.getContributor("tasklane-worker-consumers");
    assertThat(consumers.health().getStatus()).isEqualTo(Status.UP);
    HealthIndicator store = (HealthIndicator) health.getContributor("tasklane-worker-idempotency");
    assertThat(store.health().getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void aHandlerThatThrowsRollsBackItsWriteAndItsMark() throws Exception {
    Dispatch d = dispatch("greet", "fail-bob");
    kafka.send(d);

    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).isNotEqualTo(Outcome.SUCCEEDED);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE item = ?", "hello fail-bob")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM tasklane_processed WHERE task_id = ?", d.task().id()))
        .isZero();
  }

  @Test
  void aMethodHandlerOnAServiceBeanRuns() {
    Dispatch d = dispatch("wave", "eve");
    kafka.send(d);

    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ctx.getBean(Greeter.class).greeted).containsEntry(d.task().id(), "hello wave eve");
  }

  @Test
  void aTypedHandlerBeanReceivesItsPayloadObject() {
    Dispatch d = dispatch("order.label", Map.of("orderId", 42, "carrier", "dhl"));
    kafka.send(d);

    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ctx.getBean(Greeter.class).greeted).containsEntry(d.task().id(), "hello dhl 42");
  }
}
