package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.MisfirePolicy;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskType;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code schedule} / {@code unschedule} write one row in the caller's transaction (JDBC, JPA). */
@TasklaneStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScheduleOutboxTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  record Report(String name) {}

  static final TaskType<Report> REPORT =
      TaskType.of("report.build", Report.class).maxAttempts(4).timeout(Duration.ofMinutes(2));

  final TestDb db;
  final SessionFactory sessions;
  final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

  ScheduleOutboxTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_sched");
    sessions =
        new Configuration()
            .addAnnotatedClass(OutboxEntry.class)
            .setProperty("hibernate.connection.url", db.url())
            .setProperty("hibernate.connection.username", stack.username())
            .setProperty("hibernate.connection.password", stack.password())
            .setProperty("hibernate.hbm2ddl.auto", "validate")
            .buildSessionFactory();
  }

  @AfterAll
  void close() {
    sessions.close();
  }

  @BeforeEach
  void empty() {
    db.truncate();
  }

  private JdbcTaskOutbox outbox(Connection c) {
    return TaskOutbox.builder().clock(clock).jdbc(c);
  }

  private List<OutboxRow> rows() {
    return db.rows().stream()
        .map(
            m -> {
              OutboxRow.Builder b = OutboxRow.builder();
              for (OutboxColumn col : OutboxColumn.values()) {
                b.read(col, m.get(col.columnName()));
              }
              return b.build();
            })
        .toList();
  }

  @Test
  void aCommittedScheduleIsOneRowHoldingTheDefinitionWithTheDefaultVersion() throws Exception {
    ScheduleDefinition written;
    try (Connection c = db.begin()) {
      written =
          outbox(c)
              .schedule(
                  ScheduleRequest.named("reports.nightly", REPORT, new Report("sales"))
                      .cron("30 2 * * *")
                      .zone("Europe/Berlin")
                      .misfire(MisfirePolicy.parse("FIRE_ONCE")));
      c.commit();
    }

    assertThat(written.version()).isEqualTo(NOW.toEpochMilli());
    List<OutboxRow> rows = rows();
    assertThat(rows).hasSize(1);
    OutboxRow row = rows.get(0);
    assertThat(row.kind()).isEqualTo("SCHEDULE");
    assertThat(row.routingKey()).isEqualTo("reports.nightly");
    assertThat(row.handler()).isEqualTo("report.build");
    assertThat(row.createdAt()).isEqualTo(NOW.toEpochMilli());
    ScheduleDefinition d = OutboxRows.toSchedule(row);
    assertThat(d).isEqualTo(written);
    assertThat(d.payload()).isEqualTo(WireCodec.readTree("{\"name\":\"sales\"}"));
    assertThat(d.maxAttempts()).isEqualTo(4);
    assertThat(d.timeoutMs()).isEqualTo(120_000);
    assertThat(d.zone()).isEqualTo("Europe/Berlin");
    assertThat(d.misfire()).isEqualTo("FIRE_ONCE");
  }

  @Test
  void theCallersVersionIsKeptAndVersionZeroOfADefinitionMeansTheDefault() throws Exception {
    ScheduleDefinition base =
        ScheduleDefinition.builder().name("s.every").handler("a.b").every("30s").build();
    try (Connection c = db.begin()) {
      assertThat(outbox(c).schedule(base.toBuilder().version(7).build()).version()).isEqualTo(7);
      assertThat(outbox(c).schedule(base).version()).isEqualTo(NOW.toEpochMilli());
      assertThat(
              outbox(c)
                  .schedule(ScheduleRequest.named("s.every").handler("a.b").every("1m").version(0))
                  .version())
          .isZero();
      c.commit();
    }
    assertThat(rows())
        .extracting(r -> OutboxRows.toSchedule(r).version())
        .containsExactly(7L, NOW.toEpochMilli(), 0L);
  }

  @Test
  void aRolledBackScheduleOrUnscheduleLeavesNoRow() throws Exception {
    try (Connection c = db.begin()) {
      outbox(c).schedule(ScheduleRequest.named("gone").handler("a.b").every("5m"));
      outbox(c).unschedule("gone");
      c.rollback();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void unscheduleWritesOneRowWithTheGivenOrDefaultVersion() throws Exception {
    try (Connection c = db.begin()) {
      assertThat(outbox(c).unschedule("reports.nightly")).isEqualTo(NOW.toEpochMilli());
      assertThat(outbox(c).unschedule("reports.weekly", 12)).isEqualTo(12);
      c.commit();
    }
    List<OutboxRow> rows = rows();
    assertThat(rows).extracting(OutboxRow::kind).containsExactly("UNSCHEDULE", "UNSCHEDULE");
    assertThat(rows)
        .extracting(OutboxRows::toUnschedule)
        .containsExactly(
            Unschedule.of("reports.nightly", NOW.toEpochMilli(), NOW.toEpochMilli()),
            Unschedule.of("reports.weekly", 12, NOW.toEpochMilli()));
  }

  @Test
  void anInvalidScheduleIsRefusedNamingTheFieldAndWritesNothing() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox o = outbox(c);
      assertField(
          () -> o.schedule(ScheduleRequest.named("bad name").handler("a.b").every("5m")), "name");
      assertField(
          () -> o.schedule(ScheduleRequest.named("s").handler("A!").every("5m")), "handler");
      assertField(() -> o.schedule(ScheduleRequest.named("s").handler("a.b")), "cron");
      assertField(
          () -> o.schedule(ScheduleRequest.named("s").handler("a.b").every("10ms")), "every");
      assertField(
          () -> o.schedule(ScheduleRequest.named("s").handler("a.b").cron("* * * * *").zone("X/Y")),
          "zone");
      assertField(
          () -> o.schedule(ScheduleRequest.named("s").handler("a.b").every("5m").misfire("NEVER")),
          "misfire");
      assertField(
          () -> o.schedule(ScheduleRequest.named("s").handler("a.b").every("5m").maxAttempts(0)),
          "maxAttempts");
      assertField(
          () ->
              o.schedule(
                  ScheduleRequest.named("s")
                      .handler("a.b")
                      .every("5m")
                      .payload(Map.of("blob", "x".repeat(300 * 1024)))),
          "payload");
      assertField(() -> o.unschedule("bad name"), "name");
      assertField(() -> o.unschedule("s", -1), "version");
      c.commit();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void theJpaOutboxWritesScheduleRowsInItsTransaction() {
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      TaskOutbox o = TaskOutbox.builder().clock(clock).jpa(em);
      o.schedule(ScheduleRequest.named("jpa.sched").handler("a.b").broadcast(3).every("1h"));
      o.unschedule("jpa.old", 5);
      em.getTransaction().commit();
    }
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      TaskOutbox.jpa(em).schedule(ScheduleRequest.named("jpa.rolled").handler("a.b").every("1h"));
      em.getTransaction().rollback();
    }
    List<OutboxRow> rows = rows();
    assertThat(rows).extracting(OutboxRow::kind).containsExactly("SCHEDULE", "UNSCHEDULE");
    ScheduleDefinition d = OutboxRows.toSchedule(rows.get(0));
    assertThat(d.routing()).isEqualTo(ScheduleDefinition.Routing.BROADCAST);
    assertThat(d.shards()).isEqualTo(3);
    assertThat(OutboxRows.toUnschedule(rows.get(1)).version()).isEqualTo(5);
  }

  @Test
  void schedulingOutsideATransactionIsRefused() throws Exception {
    try (Connection c = db.connect()) {
      assertThatThrownBy(
              () -> outbox(c).schedule(ScheduleRequest.named("s").handler("a.b").every("5m")))
          .isInstanceOf(NoActiveTransactionException.class);
    }
    assertThat(db.count()).isZero();
  }

  private static void assertField(Runnable call, String field) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            InvalidTaskException.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageStartingWith(field + ": ");
  }
}
