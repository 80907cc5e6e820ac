package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ConnectionSource} over a real HikariCP pool, the way a helper like Spring's {@code
 * DataSourceUtils} lends connections: the transaction's when one is bound, else a fresh pooled one
 * in auto-commit mode. Every connection the outbox takes goes back, refused calls included.
 */
@TasklaneStack
class PooledConnectionSourceTest {
  private static final int REFUSED_CALLS = 3;

  private final TestDb db;
  private final HikariDataSource pool;
  private final ThreadLocal<Connection> bound = new ThreadLocal<>();

  PooledConnectionSourceTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_pool");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setUsername(stack.username());
    config.setPassword(stack.password());
    config.setMaximumPoolSize(REFUSED_CALLS + 2);
    config.setMinimumIdle(0);
    pool = new HikariDataSource(config);
  }

  @AfterEach
  void closePool() {
    pool.close();
  }

  /** The bound transaction's connection, else a new one from the pool (auto-commit on). */
  private Connection lend() throws SQLException {
    Connection tx = bound.get();
    return tx != null ? tx : pool.getConnection();
  }

  @Test
  void refusedCallsOutsideATransactionGiveTheirConnectionsBackToThePool() {
    JdbcTaskOutbox outbox = JdbcTaskOutbox.of(this::lend);
    for (int i = 0; i < REFUSED_CALLS; i++) {
      assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("pool.task")))
          .isInstanceOf(NoActiveTransactionException.class)
          .hasMessageContaining("auto-commit");
    }
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    assertThat(db.count()).isZero();
  }

  @Test
  void aPairedSourceGivesBackEveryConnectionItLends() {
    AtomicInteger released = new AtomicInteger();
    JdbcTaskOutbox outbox =
        JdbcTaskOutbox.of(
            ConnectionSource.of(
                this::lend,
                c -> {
                  released.incrementAndGet();
                  if (c != bound.get()) {
                    c.close();
                  }
                }));
    for (int i = 0; i < REFUSED_CALLS; i++) {
      assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("pool.task")))
          .isInstanceOf(NoActiveTransactionException.class);
    }
    assertThat(released).hasValue(REFUSED_CALLS);
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
  }

  @Test
  void theTransactionsConnectionStaysOpenAndItsRowsCommit() throws Exception {
    JdbcTaskOutbox outbox = JdbcTaskOutbox.of(this::lend);
    try (Connection tx = pool.getConnection()) {
      tx.setAutoCommit(false);
      bound.set(tx);
      outbox.enqueue(TaskRequest.to("pool.task").key("one"));
      outbox.enqueue(TaskRequest.to("pool.task").key("two"));
      assertThat(tx.isClosed()).isFalse();
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isEqualTo(1);
      tx.commit();
    } finally {
      bound.remove();
    }
    assertThat(db.count()).isEqualTo(2);
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
  }
}
