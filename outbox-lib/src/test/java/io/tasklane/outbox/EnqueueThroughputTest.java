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
 * Prints enqueue throughput against the real MariaDB: one enqueue per transaction, and enqueueAll
 * of 10,000 in one transaction with the driver's default settings and two batch variants. Asserts
 * only row counts: timing targets belong to bin/bench. The test stack relaxes durability
 * (innodb-flush-log-at-trx-commit=2, sync-binlog=0), which flatters the single-enqueue number.
 */
@TasklaneStack
class EnqueueThroughputTest {
  static final int SINGLES = 2_000;
  static final int BATCH = 10_000;
  static final List<String> DRIVER_OPTIONS =
      List.of("", "rewriteBatchedStatements=true", "useBulkStmtsForInserts=false");

  final LocalStack stack;
  final TestDb db;
  final TaskRequest request =
      TaskRequest.to("bench.task").payload(Map.of("order", 42, "note", "x".repeat(200)));

  EnqueueThroughputTest(LocalStack stack) {
    this.stack = stack;
    db = TestDb.create(stack, "outbox_tput");
  }

  @Test
  void printsRowsPerSecondSingleAndBatched() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      for (int i = 0; i < 300; i++) { // warm-up: class loading, JIT
        outbox.enqueue(request);
        c.commit();
      }
      db.truncate();
      long t0 = System.nanoTime();
      for (int i = 0; i < SINGLES; i++) {
        outbox.enqueue(request);
        c.commit();
      }
      long single = System.nanoTime() - t0;
      System.out.printf(
          "outbox enqueue throughput (%s, %s): single enqueue+commit: %d rows in %d ms = %.0f rows/s%n",
          c.getMetaData().getDatabaseProductVersion(),
          c.getMetaData().getDriverName() + " " + c.getMetaData().getDriverVersion(),
          SINGLES,
          single / 1_000_000,
          SINGLES / (single / 1e9));
    }
    assertThat(db.count()).isEqualTo(SINGLES);
    for (String options : DRIVER_OPTIONS) {
      db.truncate();
      batched(options);
      assertThat(db.count()).as(options).isEqualTo(BATCH);
    }
  }

  private void batched(String options) throws Exception {
    String url = options.isEmpty() ? db.url() : db.url() + "?" + options;
    List<TaskRequest> batch = IntStream.range(0, BATCH).mapToObj(i -> request).toList();
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      c.setAutoCommit(false);
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      outbox.enqueueAll(batch.subList(0, 1_000)); // warm-up
      c.rollback();
      long t = System.nanoTime();
      outbox.enqueueAll(batch);
      c.commit();
      long nanos = System.nanoTime() - t;
      System.out.printf(
          "outbox enqueue throughput: enqueueAll %d in one transaction [%s]: %d ms = %.0f rows/s%n",
          BATCH,
          options.isEmpty() ? "driver defaults" : options,
          nanos / 1_000_000,
          BATCH / (nanos / 1e9));
    }
  }
}
