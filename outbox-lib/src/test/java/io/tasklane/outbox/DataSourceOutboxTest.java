package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.TaskKey;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.MariaDbDataSource;

/** {@link JdbcTaskOutbox#of(DataSource)}: transaction-aware data sources only. */
@TasklaneStack
class DataSourceOutboxTest {
  final LocalStack stack;
  final TestDb db;

  DataSourceOutboxTest(LocalStack stack) {
    this.stack = stack;
    db = TestDb.create(stack, "outbox_ds");
  }

  @Test
  void transactionAwareDataSourceWritesInTheBoundTransaction() throws Exception {
    AtomicInteger releases = new AtomicInteger();
    try (Connection tx = db.begin()) {
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(transactionAware(tx, releases));
      outbox.enqueue(TaskRequest.to("ds.task").key("one"));
      outbox.cancel(TaskKey.of("ds.task", "one"));
      assertThat(releases).as("handle released after each call").hasValue(2);
      tx.commit();
    }
    assertThat(db.rows()).extracting(r -> r.get("kind")).containsExactly("TASK", "CANCEL");
  }

  @Test
  void plainPoolHandsOutAutoCommitConnectionsAndIsRefused() throws Exception {
    var plain = new MariaDbDataSource(db.url());
    plain.setUser(stack.username());
    plain.setPassword(stack.password());
    assertThatThrownBy(() -> JdbcTaskOutbox.of(plain).enqueue(TaskRequest.to("ds.task")))
        .isInstanceOf(NoActiveTransactionException.class)
        .hasMessageContaining("auto-commit");
    assertThat(db.count()).isZero();
  }

  /** Like Spring's TransactionAwareDataSourceProxy: the bound connection, close() = release. */
  static DataSource transactionAware(Connection bound, AtomicInteger releases) {
    Connection handle =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close")) {
                    releases.incrementAndGet();
                    return null;
                  }
                  try {
                    return method.invoke(bound, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                return handle;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
