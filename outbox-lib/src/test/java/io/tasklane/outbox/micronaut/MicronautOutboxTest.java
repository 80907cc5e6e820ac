package io.tasklane.outbox.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.MethodCall;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.NoActiveTransactionException;
import io.tasklane.outbox.OutboxAsyncExecution;
import io.tasklane.outbox.OutboxException;
import io.tasklane.outbox.OutboxSchema;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The TaskOutbox bean inside Micronaut's @Transactional, and @OutboxAsync. */
@TasklaneStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MicronautOutboxTest {
  final LocalStack stack;
  final String url;
  final ApplicationContext context;
  final Shop shop;
  final Receipts receipts;

  MicronautOutboxTest(LocalStack stack) throws Exception {
    this.stack = stack;
    url =
        stack.createDatabase(
            "outbox_mn_" + UUID.randomUUID().toString().substring(0, 8).replace("-", ""));
    try (Connection c = connect()) {
      OutboxSchema.create(c);
    }
    context =
        ApplicationContext.run(
            properties(stack, url, Map.of("tasklane.outbox.max-payload-bytes", "1000")));
    shop = context.getBean(Shop.class);
    receipts = context.getBean(Receipts.class);
  }

  static Map<String, Object> properties(LocalStack stack, String url, Map<String, Object> extra) {
    Map<String, Object> p = new HashMap<>();
    p.put("datasources.default.url", url);
    p.put("datasources.default.username", stack.username());
    p.put("datasources.default.password", stack.password());
    p.put("datasources.default.driver-class-name", "org.mariadb.jdbc.Driver");
    p.put("datasources.default.maximum-pool-size", 2);
    p.put("jpa.default.entity-scan.packages", "io.tasklane.outbox");
    p.put("jpa.default.properties.hibernate.hbm2ddl.auto", "validate");
    p.putAll(extra);
    return p;
  }

  @AfterAll
  void close() {
    context.close();
  }

  @BeforeEach
  void empty() throws Exception {
    try (Connection c = connect()) {
      c.createStatement().execute("TRUNCATE TABLE tasklane_outbox");
    }
    receipts.sent.clear();
  }

  @Test
  void beanEnqueuesAndCancelsInsideTransactional() throws Exception {
    String id = shop.placeOrder(42);
    String cancelled = shop.payOrder(42);
    assertThat(id).isEqualTo(cancelled).isEqualTo(TaskIds.forKey("order.cancel", "order-42"));
    List<Map<String, Object>> rows = rows();
    assertThat(rows).extracting(r -> r.get("kind")).containsExactly("TASK", "CANCEL");
    assertThat(rows.get(0)).containsEntry("payload", "42").containsEntry("task_id", id);
    assertThat((long) rows.get(0).get("due_at") - (long) rows.get(0).get("created_at"))
        .isEqualTo(30 * 60_000L);
  }

  @Test
  void rollbackOfTheTransactionalMethodLeavesNoRow() throws Exception {
    assertThatThrownBy(() -> shop.placeOrderThenFail(7)).hasMessage("payment declined");
    assertThat(rows()).isEmpty();
    assertThat(receipts.sent).isEmpty();
  }

  @Test
  void beanOutsideTransactionIsRefused() throws Exception {
    TaskOutbox outbox = context.getBean(TaskOutbox.class);
    assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("order.cancel")))
        .isInstanceOf(NoActiveTransactionException.class)
        .hasMessageContaining("@io.micronaut.transaction.annotation.Transactional")
        .hasMessageContaining("another method of the same bean");
    assertThat(rows()).isEmpty();
  }

  @Test
  void configuredPayloadLimitApplies() throws Exception {
    assertThatThrownBy(() -> shop.enqueueRaw(TaskRequest.to("big.one").payload("x".repeat(2000))))
        .isInstanceOfSatisfying(
            InvalidTaskException.class,
            e -> {
              assertThat(e.field()).isEqualTo("payload");
              assertThat(e.getMessage()).contains("limit is 1000 bytes");
            });
    assertThat(rows()).isEmpty();
  }

  @Test
  void outboxAsyncRecordsTheMethodAndItsArgumentsInsteadOfRunningIt() throws Exception {
    shop.checkout("o-9", new Receipts.Receipt(1999, List.of("book", "pen")));
    assertThat(receipts.sent).as("not run by the caller").isEmpty();
    List<Map<String, Object>> rows = rows();
    assertThat(rows).hasSize(1);
    Map<String, Object> row = rows.get(0);
    assertThat(row)
        .containsEntry("handler", MethodCall.DEFAULT_HANDLER)
        .containsEntry("task_key", "receipt-o-9")
        .containsEntry("task_id", TaskIds.forKey(MethodCall.DEFAULT_HANDLER, "receipt-o-9"))
        .containsEntry("max_attempts", 3)
        .containsEntry("timeout_ms", 30_000L);
    assertThat((long) row.get("due_at") - (long) row.get("created_at")).isEqualTo(60_000L);
    MethodCall call = WireCodec.mapper().readValue((String) row.get("payload"), MethodCall.class);
    assertThat(call.beanType()).isEqualTo(Receipts.class.getName());
    assertThat(call.method()).isEqualTo("send");
    assertThat(call.parameterTypes())
        .containsExactly(String.class.getName(), Receipts.Receipt.class.getName());
    assertThat(call.args())
        .isEqualTo(
            WireCodec.readTree("[\"o-9\",{\"amountCents\":1999,\"lines\":[\"book\",\"pen\"]}]"));
    // What the worker does with the record: bind the arguments and run the method for real.
    var receipt = WireCodec.treeToValue(call.args().get(1), Receipts.Receipt.class);
    OutboxAsyncExecution.run(
        call.beanType(),
        call.method(),
        () -> {
          receipts.send(call.args().get(0).asText(), receipt);
          return null;
        });
    assertThat(receipts.sent).containsExactly("o-9:1999");
    assertThat(rows()).as("executing does not record again").hasSize(1);
  }

  @Test
  void outboxAsyncOutsideTransactionIsRefusedByDefault() throws Exception {
    assertThatThrownBy(() -> receipts.broadcast(1))
        .isInstanceOf(NoActiveTransactionException.class)
        .hasMessageContaining(Receipts.class.getName() + ".broadcast")
        .hasMessageContaining("tasklane.outbox.async-outside-transaction: OWN_TRANSACTION");
    assertThat(rows()).isEmpty();
    assertThat(receipts.sent).isEmpty();
  }

  @Test
  void outboxAsyncMethodMustReturnVoid() {
    assertThatThrownBy(() -> receipts.notVoid())
        .isInstanceOf(OutboxException.class)
        .hasMessageContaining("must return void");
  }

  @Test
  void outboxAsyncOutsideTransactionRecordsInItsOwnTransactionWhenConfigured() throws Exception {
    try (ApplicationContext own =
        ApplicationContext.run(
            properties(
                stack,
                url,
                Map.of("tasklane.outbox.async-outside-transaction", "OWN_TRANSACTION")))) {
      own.getBean(Receipts.class).broadcast(5);
    }
    List<Map<String, Object>> rows = rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0)).containsEntry("handler", "mail.bulk");
    MethodCall call =
        WireCodec.mapper().readValue((String) rows.get(0).get("payload"), MethodCall.class);
    assertThat(call.method()).isEqualTo("broadcast");
    assertThat(call.parameterTypes()).containsExactly("int");
    assertThat(call.args()).isEqualTo(WireCodec.readTree("[5]"));
  }

  private Connection connect() throws Exception {
    return DriverManager.getConnection(url, stack.username(), stack.password());
  }

  private List<Map<String, Object>> rows() throws Exception {
    try (Connection c = connect();
        ResultSet rs =
            c.createStatement().executeQuery("SELECT * FROM tasklane_outbox ORDER BY id")) {
      List<Map<String, Object>> out = new ArrayList<>();
      while (rs.next()) {
        Map<String, Object> row = new HashMap<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
        }
        out.add(row);
      }
      return out;
    }
  }
}
