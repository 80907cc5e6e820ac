package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Prints batch insert speed on the testkit's PostgreSQL (and, for comparison, its MariaDB): 10,000
 * rows as enqueueAll of 100 per transaction, 100 transactions. Asserts only row counts: timing
 * targets belong to bin/bench. The test servers relax durability (PostgreSQL: fsync=off,
 * synchronous_commit=off; MariaDB: innodb-flush-log-at-trx-commit=2, sync-binlog=0).
 */
@TasklaneStack
class PostgresEnqueueThroughputTest {
  static final int ROWS = 10_000;
  static final int PER_TRANSACTION = 100;

  final LocalStack stack;
  final PgDb pg;
  final TestDb maria;
  final List<TaskRequest> batch =
      IntStream.range(0, PER_TRANSACTION)
          .mapToObj(
              i ->
                  TaskRequest.to("bench.task").payload(Map.of("order", i, "note", "x".repeat(200))))
          .toList();

  PostgresEnqueueThroughputTest(LocalStack stack) {
    this.stack = stack;
    pg = PgDb.create(stack, "outbox_pg_tput");
    maria = TestDb.create(stack, "outbox_tput_cmp");
  }

  @Test
  void printsRowsPerSecondOfBatchesOfHundredOnPostgresqlAndMariaDb() throws Exception {
    for (String options : List.of("", "reWriteBatchedInserts=true")) {
      String url = options.isEmpty() ? pg.url() : pg.url() + "&" + options;
      pg.truncate();
      measure(
          "PostgreSQL " + (options.isEmpty() ? "driver defaults" : options),
          DriverManager.getConnection(url, pg.pg().username(), pg.pg().password()));
      assertThat(pg.count()).as(options).isEqualTo(ROWS);
    }
    measure(
        "MariaDB driver defaults",
        DriverManager.getConnection(maria.url(), stack.username(), stack.password()));
    assertThat(maria.count()).isEqualTo(ROWS);
  }

  private void measure(String what, Connection connection) throws Exception {
    try (Connection c = connection) {
      c.setAutoCommit(false);
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      for (int i = 0; i < 20; i++) { // warm-up: class loading, JIT, server caches
        outbox.enqueueAll(batch);
        c.rollback();
      }
      long t = System.nanoTime();
      for (int i = 0; i < ROWS / PER_TRANSACTION; i++) {
        outbox.enqueueAll(batch);
        c.commit();
      }
      long nanos = System.nanoTime() - t;
      System.out.printf(
          "outbox batch insert (%s %s, %s): %d rows, enqueueAll of %d per transaction: %d ms"
              + " = %.0f rows/s%n",
          c.getMetaData().getDatabaseProductName(),
          c.getMetaData().getDatabaseProductVersion(),
          what,
          ROWS,
          PER_TRANSACTION,
          nanos / 1_000_000,
          ROWS / (nanos / 1e9));
    }
  }
}
