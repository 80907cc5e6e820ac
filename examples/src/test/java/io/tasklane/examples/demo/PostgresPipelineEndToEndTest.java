package io.tasklane.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.harness.Database;
import io.tasklane.harness.DatabaseKind;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code bin/demo --db postgres} on the shared stack's private PostgreSQL: the order service
 * enqueues through outbox-lib (JPA) into the PostgreSQL outbox, the relay streams it with {@code
 * connector=postgresql}, and every demo invariant holds. A smaller run than {@link
 * PipelineEndToEndTest} (about 700 tasks) to keep the suite short; afterwards the relay's
 * replication slot is gone (it would hold WAL).
 */
@TasklaneStack
class PostgresPipelineEndToEndTest {

  @Test
  void mixedWorkloadOnPostgresReachesEveryExpectedStateWithEachEffectOnce(LocalStack stack)
      throws Exception {
    Path home = Path.of("").toAbsolutePath().getParent();
    DemoMain main = new DemoMain();
    new CommandLine(main)
        .parseArgs(
            "--db", "postgres",
            "--orders", "300",
            "--rate", "100",
            "--delay", "PT4S",
            "--cases", "15",
            "--settle-timeout", "PT90S",
            "--home", home.toString());
    DemoOptions options = main.options();
    assertThat(options.db()).isEqualTo(DatabaseKind.POSTGRESQL);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    boolean passed;
    Database db;
    try (DemoRun run = new DemoRun(options, out, stack)) {
      passed = run.execute();
      db = run.database();
    }
    String report = buffer.toString(StandardCharsets.UTF_8).replace('\r', '\n');
    System.out.println(report);
    assertThat(passed).as(report).isTrue();
    assertThat(report)
        .contains("database: PostgreSQL (relay connector=postgresql)")
        .contains("RESULT: PASS")
        .doesNotContain("FAIL ");
    assertThat(db.kind()).isEqualTo(DatabaseKind.POSTGRESQL);
    try (Connection c = db.connect()) {
      assertThat(count(c, "SELECT COUNT(*) FROM demo_orders"))
          .as("orders on PostgreSQL")
          .isEqualTo(300);
      assertThat(
              count(
                  c,
                  "SELECT COUNT(*) FROM pg_replication_slots WHERE database = current_database()"))
          .as("replication slots left after the run")
          .isZero();
    }
  }

  private static long count(Connection c, String sql) throws Exception {
    try (ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
