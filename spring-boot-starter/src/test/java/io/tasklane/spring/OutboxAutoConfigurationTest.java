package io.tasklane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.outbox.NoActiveTransactionException;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.spring.internal.SpringWorker;
import io.tasklane.spring.jdbcapp.JdbcApp;
import io.tasklane.spring.jdbcapp.JdbcOrderService;
import io.tasklane.spring.jpaapp.JpaApp;
import io.tasklane.spring.jpaapp.OrderService;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The auto-configured TaskOutbox joins Spring's transactions, on JPA and on plain JDBC, against
 * MariaDB on the shared stack: a committed enqueue leaves its row, a rolled-back one none, and a
 * call outside a transaction is refused.
 */
@TasklaneStack
class OutboxAutoConfigurationTest {
  private static final String BY_TASK = "SELECT COUNT(*) FROM tasklane_outbox WHERE task_id = ?";
  private static final String BY_ITEM = "SELECT COUNT(*) FROM orders WHERE item = ?";
  private static TestDatabases db;

  @BeforeAll
  static void database(LocalStack stack) throws Exception {
    db = new TestDatabases(stack);
  }

  @Test
  void jpaEnqueueCommitsWithTheEntityAndRollsBackWithIt() throws Exception {
    try (ConfigurableApplicationContext ctx = db.run(JpaApp.class)) {
      OrderService orders = ctx.getBean(OrderService.class);

      String id = orders.place("jpa-book");
      assertThat(db.count(BY_TASK, id)).isEqualTo(1);
      assertThat(db.count(BY_ITEM, "jpa-book")).isEqualTo(1);

      long before = db.count("SELECT COUNT(*) FROM tasklane_outbox", null);
      assertThatThrownBy(() -> orders.placeThenFail("jpa-lamp"))
          .isInstanceOf(IllegalStateException.class);
      assertThat(db.count("SELECT COUNT(*) FROM tasklane_outbox", null)).isEqualTo(before);
      assertThat(db.count(BY_ITEM, "jpa-lamp")).isZero();

      TaskOutbox outbox = ctx.getBean(TaskOutbox.class);
      assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("order.ship").payload("x")))
          .isInstanceOf(NoActiveTransactionException.class);
      assertThat(ctx.getBeansOfType(SpringWorker.class)).as("no handler bean, no worker").isEmpty();
    }
  }

  @Test
  void jdbcTemplateEnqueueCommitsWithTheRowAndRollsBackWithIt() throws Exception {
    try (ConfigurableApplicationContext ctx = db.run(JdbcApp.class)) {
      JdbcOrderService orders = ctx.getBean(JdbcOrderService.class);

      String id = orders.place("jdbc-book");
      assertThat(db.count(BY_TASK, id)).isEqualTo(1);
      assertThat(db.count(BY_ITEM, "jdbc-book")).isEqualTo(1);

      long before = db.count("SELECT COUNT(*) FROM tasklane_outbox", null);
      assertThatThrownBy(() -> orders.placeThenFail("jdbc-lamp"))
          .isInstanceOf(IllegalStateException.class);
      assertThat(db.count("SELECT COUNT(*) FROM tasklane_outbox", null)).isEqualTo(before);
      assertThat(db.count(BY_ITEM, "jdbc-lamp")).isZero();

      TaskOutbox outbox = ctx.getBean(TaskOutbox.class);
      assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("order.ship").payload("x")))
          .isInstanceOf(NoActiveTransactionException.class);
    }
  }

  @Test
  void outboxSettingsAreReadFromSpringsEnvironment() throws Exception {
    try (ConfigurableApplicationContext ctx =
        db.run(
            JdbcApp.class,
            "tasklane.outbox.default-max-attempts=7",
            "tasklane.outbox.default-timeout=90s")) {
      String id = ctx.getBean(JdbcOrderService.class).place("settings-book");
      assertThat(
              db.count(
                  "SELECT COUNT(*) FROM tasklane_outbox WHERE task_id = ? AND max_attempts = 7"
                      + " AND timeout_ms = 90000",
                  id))
          .isEqualTo(1);
    }
  }

  @Test
  void anUnknownOutboxKeyFailsStartUpNamingIt() {
    assertThatThrownBy(() -> db.run(JdbcApp.class, "tasklane.outbox.max-atempts=3").close())
        .hasStackTraceContaining("tasklane.outbox.max-atempts");
  }

  @Test
  void anOutboxValueOutOfRangeFailsStartUpNamingTheSettingAndItsLimit() {
    assertThatThrownBy(
            () -> db.run(JdbcApp.class, "tasklane.outbox.default-max-attempts=0").close())
        .hasStackTraceContaining("tasklane.outbox.default-max-attempts")
        .hasStackTraceContaining("it must be 1 to");
  }
}
