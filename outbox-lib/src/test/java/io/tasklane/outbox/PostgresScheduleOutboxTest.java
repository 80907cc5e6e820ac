package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SCHEDULE / UNSCHEDULE rows fit the shipped PostgreSQL table as they are (no migration). */
@TasklaneStack
class PostgresScheduleOutboxTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  final PgDb db;

  PostgresScheduleOutboxTest(LocalStack stack) {
    db = PgDb.create(stack, "outbox_pg_sched");
  }

  @Test
  void scheduleAndUnscheduleRowsCommitAndRollBackOnPostgres() throws Exception {
    ScheduleDefinition written;
    try (Connection c = db.begin()) {
      JdbcTaskOutbox o = TaskOutbox.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).jdbc(c);
      written =
          o.schedule(ScheduleRequest.named("pg.sched").handler("a.b").cron("0 * * * *").version(9));
      o.unschedule("pg.old");
      c.commit();
    }
    try (Connection c = db.begin()) {
      JdbcTaskOutbox.of(c).schedule(ScheduleRequest.named("pg.rolled").handler("a.b").every("1h"));
      c.rollback();
    }

    List<OutboxRow> rows =
        db.rows().stream()
            .map(
                m -> {
                  OutboxRow.Builder b = OutboxRow.builder();
                  for (OutboxColumn col : OutboxColumn.values()) {
                    b.read(col, m.get(col.columnName()));
                  }
                  return b.build();
                })
            .toList();
    assertThat(rows).extracting(OutboxRow::kind).containsExactly("SCHEDULE", "UNSCHEDULE");
    assertThat(OutboxRows.toSchedule(rows.get(0))).isEqualTo(written);
    assertThat(written.version()).isEqualTo(9);
    assertThat(OutboxRows.toUnschedule(rows.get(1)).version()).isEqualTo(NOW.toEpochMilli());
  }
}
