package io.tasklane.spring;

import static io.tasklane.spring.KafkaFixture.dispatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.MethodCall;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.NoActiveTransactionException;
import io.tasklane.spring.asyncapp.AsyncApp;
import io.tasklane.spring.asyncapp.Checkout;
import io.tasklane.spring.asyncapp.Receipts;
import io.tasklane.spring.internal.SpringWorker;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @OutboxAsync} on Spring, on the shared stack: a call inside {@code @Transactional} records
 * the method-call task in the caller's transaction (committed with it, rolled back with it) and
 * does not run the method; outside a transaction it is refused; the Spring worker runs the recorded
 * call through the bean's proxy, in the method's own {@code @Transactional}, where a nested
 * {@code @OutboxAsync} call is recorded again; a task naming a method that is not
 * {@code @OutboxAsync} is refused without running anything.
 */
@TasklaneStack
class OutboxAsyncTest {
  private static TestDatabases db;
  private static KafkaFixture kafka;
  private static ConfigurableApplicationContext ctx;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    db = new TestDatabases(stack);
    kafka = new KafkaFixture(stack, List.of(MethodCall.DEFAULT_HANDLER));
    ctx = db.run(AsyncApp.class, kafka.workerProperties());
  }

  @AfterAll
  static void stop() {
    if (ctx != null) {
      ctx.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  /** The payloads of the method-call rows of {@code method}, oldest first. */
  private static List<JsonNode> recorded(String method) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    try (Connection c = db.connection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT payload FROM tasklane_outbox WHERE handler = ? ORDER BY id")) {
      ps.setString(1, MethodCall.DEFAULT_HANDLER);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          JsonNode payload = WireCodec.readTree(rs.getString(1));
          if (payload.path("method").asText().equals(method)) {
            out.add(payload);
          }
        }
      }
    }
    return out;
  }

  @Test
  void aCallIsRecordedInTheCallersTransactionAndRunByTheSpringWorker() throws Exception {
    assertThat(ctx.getBeansOfType(SpringWorker.class))
        .as("@OutboxAsync beans alone start the worker")
        .hasSize(1);
    Checkout checkout = ctx.getBean(Checkout.class);
    Receipts receipts = ctx.getBean(Receipts.class);

    checkout.checkout("o-1");
    assertThat(receipts.sent()).as("recorded, not run").isEmpty();
    List<JsonNode> calls = recorded("send");
    assertThat(calls).hasSize(1);
    JsonNode call = calls.get(0);
    assertThat(call.path("beanType").asText()).isEqualTo(Receipts.class.getName());
    assertThat(call.path("parameterTypes").toString()).isEqualTo("[\"java.lang.String\",\"int\"]");
    assertThat(call.path("args").toString()).isEqualTo("[\"o-1\",2]");
    assertThat(db.count("SELECT COUNT(*) FROM tasklane_outbox WHERE task_key = ?", "receipt-o-1"))
        .as("the annotation's key template")
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT COUNT(*) FROM tasklane_outbox WHERE task_key = ? AND max_attempts = 4",
                "receipt-o-1"))
        .isEqualTo(1);

    assertThatThrownBy(() -> checkout.checkoutThenFail("o-2"))
        .isInstanceOf(IllegalStateException.class);
    assertThat(recorded("send")).as("rolled back with the caller").hasSize(1);

    assertThatThrownBy(() -> receipts.send("o-3", 1))
        .isInstanceOf(NoActiveTransactionException.class)
        .hasMessageContaining(Receipts.class.getName() + ".send")
        .hasMessageContaining("tasklane.outbox.async-outside-transaction");
    assertThat(receipts.sent()).isEmpty();

    // The worker runs the recorded call, as the scheduler dispatches it.
    Dispatch d = dispatch(MethodCall.DEFAULT_HANDLER, call);
    kafka.send(d);
    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(receipts.sent()).containsExactly("o-1 x2");
    assertThat(receipts.sentInTransaction())
        .as("the method's @Transactional")
        .containsExactly(true);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE item = ?", "receipt o-1 x2"))
        .isEqualTo(1);
    assertThat(recorded("followUp")).as("the nested call is recorded, not run").hasSize(1);
    assertThat(recorded("followUp").get(0).path("args").toString()).isEqualTo("[\"o-1\"]");
  }

  @Test
  void aTaskNamingAMethodThatIsNotOutboxAsyncIsRefused() {
    var call =
        new MethodCall(
            Receipts.class.getName(),
            "notAsync",
            List.of("java.lang.String"),
            WireCodec.mapper().createArrayNode().add("o-9"));
    Dispatch d = dispatch(MethodCall.DEFAULT_HANDLER, call);
    kafka.send(d);

    TaskResult r = kafka.awaitResult(d.task().id());
    assertThat(r.outcome()).isEqualTo(Outcome.PERMANENT_FAILURE);
    assertThat(r.error().message()).contains("not an @OutboxAsync void method");
    assertThat(ctx.getBean(Receipts.class).sent()).doesNotContain("not-async o-9");
  }
}
