package io.tasklane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.outbox.EnqueueResult;
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
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The auto-configured TaskOutbox joins Spring's transactions, on JPA and on plain JDBC, against
 * MariaDB on the shared stack: a committed enqueue leaves its row, a rolled-back one none, a call
 * outside a transaction is refused, and unique windows hold across Spring transactions.
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
  void uniqueWindowsHoldInSpringTransactionsOnJpaAndOnJdbc() throws Exception {
    for (Class<?> app : new Class<?>[] {JpaApp.class, JdbcApp.class}) {
      try (ConfigurableApplicationContext ctx = db.run(app)) {
        TaskOutbox outbox = ctx.getBean(TaskOutbox.class);
        var tx = new TransactionTemplate(ctx.getBean(PlatformTransactionManager.class));
        TaskRequest remind =
            TaskRequest.to("order.remind")
                .key("spring-" + app.getSimpleName())
                .unique(Duration.ofHours(1));

        EnqueueResult first = tx.execute(s -> outbox.enqueueWithResult(remind));
        EnqueueResult again = tx.execute(s -> outbox.enqueueWithResult(remind));
        EnqueueResult rolledBack =
            tx.execute(
                s -> {
                  s.setRollbackOnly();
                  return outbox.enqueueWithResult(remind.key("rolled-" + app.getSimpleName()));
                });
        EnqueueResult afterRollback =
            tx.execute(s -> outbox.enqueueWithResult(remind.key("rolled-" + app.getSimpleName())));

        assertThat(first.duplicate()).as(app.getSimpleName()).isFalse();
        assertThat(again.duplicate()).as(app.getSimpleName()).isTrue();
        assertThat(again.taskId()).isEqualTo(first.taskId());
        assertThat(db.count(BY_TASK, first.taskId())).isEqualTo(1);
        assertThat(afterRollback.duplicate()).as("a rolled-back window is free").isFalse();
        assertThat(afterRollback.taskId()).isNotEqualTo(rolledBack.taskId());
        assertThat(db.count(BY_TASK, rolledBack.taskId())).isZero();
      }
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
