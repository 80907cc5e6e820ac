package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskType;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.OutboxSchema;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A task type declared once: enqueued through the outbox with a payload object and the type's
 * defaults, handled by a {@link TypedHandler} that receives the payload object.
 */
@TasklaneStack
class TypedHandlerTest {
  record OrderRef(long orderId, String reason) {}

  static final TaskType<OrderRef> ORDER_CANCEL =
      TaskType.of("order.cancel", OrderRef.class)
          .maxAttempts(4)
          .timeout(Duration.ofSeconds(20))
          .backoff(RetryPolicy.fixed(Duration.ofSeconds(5)));

  private static WorkerFixture fx;
  private static Received received;

  /** What the typed handler observed, by task id. */
  @Singleton
  @Requires(property = "test.suite", value = "typed")
  static class Received {
    final Map<String, OrderRef> payloads = new ConcurrentHashMap<>();
    final Map<String, Integer> maxAttempts = new ConcurrentHashMap<>();
  }

  @Singleton
  @Requires(property = "test.suite", value = "typed")
  static class CancelOrder implements TypedHandler<OrderRef> {
    private final Received received;

    CancelOrder(Received received) {
      this.received = received;
    }

    @Override
    public TaskType<OrderRef> type() {
      return ORDER_CANCEL;
    }

    @Override
    public void handle(OrderRef ref, TaskContext ctx) {
      received.payloads.put(ctx.taskId(), ref);
      received.maxAttempts.put(ctx.taskId(), ctx.maxAttempts());
    }
  }

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new WorkerFixture(stack, "typed", List.of(ORDER_CANCEL.name()));
    try (Connection c = fx.connection()) {
      OutboxSchema.create(c);
    }
    received =
        fx.start(Map.of("tasklane.worker.idempotency.enabled", false)).getBean(Received.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @Test
  void aTypedTaskFromTheOutboxReachesTheTypedHandlerAsItsPayloadObject() throws Exception {
    TaskEnvelope task = enqueue(outbox -> outbox.enqueue(ORDER_CANCEL, new OrderRef(42, "unpaid")));
    assertThat(task.handler()).isEqualTo("order.cancel");
    assertThat(task.maxAttempts()).isEqualTo(4);
    assertThat(task.timeoutMs()).isEqualTo(20_000);
    assertThat(task.backoff()).isEqualTo(RetryPolicy.fixed(Duration.ofSeconds(5)));

    TaskResult r = fx.awaitResult(dispatch(task).id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(received.payloads.get(task.id())).isEqualTo(new OrderRef(42, "unpaid"));
    assertThat(received.maxAttempts.get(task.id())).isEqualTo(4);
  }

  @Test
  void aRequestOverridesTheTypesDefaults() throws Exception {
    TaskEnvelope task =
        enqueue(
            outbox ->
                outbox.enqueue(
                    TaskRequest.of(ORDER_CANCEL, new OrderRef(7, "late"))
                        .key("order-7")
                        .maxAttempts(2)));
    assertThat(task.id()).isEqualTo(ORDER_CANCEL.key("order-7").taskId());
    assertThat(task.maxAttempts()).isEqualTo(2);
    assertThat(task.timeoutMs()).isEqualTo(20_000);

    TaskResult r = fx.awaitResult(dispatch(task).id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(received.payloads.get(task.id())).isEqualTo(new OrderRef(7, "late"));
    assertThat(received.maxAttempts.get(task.id())).isEqualTo(2);
  }

  @Test
  void theStringFormReachesTheSameHandler() throws Exception {
    TaskEnvelope task =
        enqueue(
            outbox ->
                outbox.enqueue(
                    TaskRequest.to("order.cancel").payload(Map.of("orderId", 9, "reason", "x"))));

    TaskResult r = fx.awaitResult(dispatch(task).id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(received.payloads.get(task.id())).isEqualTo(new OrderRef(9, "x"));
  }

  /** Enqueues in one committed transaction; returns the task as the relay reads it from its row. */
  private static TaskEnvelope enqueue(Function<TaskOutbox, String> enqueue) throws Exception {
    String id;
    try (Connection c = fx.connection()) {
      c.setAutoCommit(false);
      id = enqueue.apply(TaskOutbox.builder().jdbc(c));
      c.commit();
    }
    try (Connection c = fx.connection();
        PreparedStatement st =
            c.prepareStatement("SELECT * FROM " + OutboxSchema.TABLE + " WHERE task_id = ?")) {
      st.setString(1, id);
      try (ResultSet row = st.executeQuery()) {
        assertThat(row.next()).as("outbox row of %s", id).isTrue();
        String backoff = row.getString("backoff");
        return TaskEnvelope.builder()
            .id(id)
            .handler(row.getString("handler"))
            .key(row.getString("task_key"))
            .payload(WireCodec.readTree(row.getString("payload")))
            .dueAt(row.getLong("due_at"))
            .maxAttempts(row.getInt("max_attempts"))
            .timeoutMs(row.getLong("timeout_ms"))
            .backoff(
                backoff == null ? null : WireCodec.mapper().readValue(backoff, RetryPolicy.class))
            .createdAt(row.getLong("created_at"))
            .source(new Source(OutboxSchema.TABLE, row.getLong("id")))
            .build();
      }
    }
  }

  /** Sends the first attempt of {@code task} as the scheduler dispatches it. */
  private static Dispatch dispatch(TaskEnvelope task) {
    long now = System.currentTimeMillis();
    Dispatch d = Dispatch.of(task, 1, now + task.timeoutMs() + 600_000, now);
    fx.send(d);
    return d;
  }
}
