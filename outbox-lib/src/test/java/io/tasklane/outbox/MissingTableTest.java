package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Bad-input catalogue, "missing table": enqueueing into a database without {@code tasklane_outbox}
 * fails at once with an {@link OutboxException} naming the table, inside the caller's transaction,
 * so the business write of that transaction rolls back with it.
 */
@TasklaneStack
class MissingTableTest {

  @Test
  void enqueueWithoutTheOutboxTableFailsNamingItAndTheTransactionRollsBack(LocalStack stack)
      throws Exception {
    String db = "outbox_notable_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String url = stack.createDatabase(db);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE orders (id INT PRIMARY KEY)");
      }
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("INSERT INTO orders VALUES (1)");
      }
      assertThatThrownBy(
              () -> JdbcTaskOutbox.of(c).enqueue(TaskRequest.to("order.cancel").payload(1)))
          .isInstanceOf(OutboxException.class)
          .hasMessageContaining(OutboxSchema.TABLE)
          .hasMessageContaining("doesn't exist");
      c.rollback();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
    }
  }
}
