package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxRows;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.ScheduleRequest;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Schedules defined in the application's transaction (outbox {@code schedule} / {@code unschedule})
 * reach {@code <ns>.tasks} through a real relay, keyed by the schedule's name; rolled-back ones
 * never do, and a schedule row the scheduler would refuse goes to the relay's DLT.
 */
@TasklaneStack
class ScheduleRelayTest {
  static RelayFixture fx;
  static Relay relay;
  static TopicReader tasks;
  static TopicReader dlt;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new RelayFixture(stack, "relay_sched");
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    dlt = new TopicReader(stack.bootstrapServers(), fx.topics.relayDlt());
    relay = fx.startRelay(Clock.systemUTC());
    assertThat(relay.awaitStreaming(Duration.ofSeconds(90)))
        .as("relay streaming; state %s", relay.status())
        .isTrue();
  }

  @AfterAll
  static void stop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    if (tasks != null) {
      tasks.close();
    }
    if (dlt != null) {
      dlt.close();
    }
  }

  @Test
  void aCommittedScheduleBecomesTheDefinitionOnTheTasksTopicAndARolledBackOneNothing()
      throws Exception {
    ScheduleDefinition committed;
    try (Connection c = fx.connect()) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c)
          .schedule(ScheduleRequest.named("rolled.back").handler("report.build").every("5m"));
      c.rollback();
      committed =
          JdbcTaskOutbox.of(c)
              .schedule(
                  ScheduleRequest.named("reports.nightly")
                      .handler("report.build")
                      .payload(java.util.Map.of("report", "sales"))
                      .cron("30 2 * * *")
                      .zone("Europe/Berlin"));
      c.commit();
    }

    ConsumerRecord<String, byte[]> r = awaitKey("reports.nightly");
    TaskTopicRecord record = WireCodec.decodeTaskRecord(r.value());
    assertThat(record).isEqualTo(committed);
    assertThat(new String(r.value(), StandardCharsets.UTF_8)).contains("\"type\":\"schedule\"");
    assertThat(committed.version()).isPositive();
    // The rolled-back row came first in the binlog, so it would have been relayed before.
    assertThat(tasks.firstByKey).doesNotContainKey("rolled.back");
  }

  @Test
  void aCommittedUnscheduleBecomesTheDeletionAndARolledBackOneNothing() throws Exception {
    long version;
    try (Connection c = fx.connect()) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c).unschedule("unsched.rolled", 3);
      c.rollback();
      version = JdbcTaskOutbox.of(c).unschedule("unsched.done");
      c.commit();
    }

    ConsumerRecord<String, byte[]> r = awaitKey("unsched.done");
    Unschedule u = (Unschedule) WireCodec.decodeTaskRecord(r.value());
    assertThat(u.name()).isEqualTo("unsched.done");
    assertThat(u.version()).isEqualTo(version);
    assertThat(tasks.firstByKey).doesNotContainKey("unsched.rolled");
    // Counted under their own kind, not as tasks.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(relay.metricsText())
                    .containsPattern(
                        "tasklane_relay_records_total\\{kind=\"unschedule\"[^}]*} [1-9]")
                    .containsPattern("tasklane_relay_records_total\\{kind=\"task\"[^}]*} 0\\.0"));
  }

  @Test
  void aScheduleRowTheSchedulerWouldRefuseIsDeadLetteredNamingTheField() throws Exception {
    ScheduleDefinition bad =
        ScheduleDefinition.builder()
            .name("bad.zone")
            .version(1)
            .handler("report.build")
            .every("5m")
            .zone("Mars/Olympus")
            .build();
    String rowId;
    try (Connection c = fx.connect();
        PreparedStatement ps =
            c.prepareStatement(RelayFixture.INSERT, PreparedStatement.RETURN_GENERATED_KEYS)) {
      // Written by hand: the outbox would refuse it before the insert.
      var row = OutboxRows.schedule(io.tasklane.core.TaskIds.keyless(Clock.systemUTC()), bad, 1);
      RelayFixture.bindTask(ps, row.taskId(), "bad.zone", "report.build", row.payload(), 1);
      ps.setString(3, "SCHEDULE");
      ps.executeUpdate();
      try (var keys = ps.getGeneratedKeys()) {
        keys.next();
        rowId = String.valueOf(keys.getLong(1));
      }
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c).schedule(ScheduleRequest.named("after.bad").handler("a.b").every("1h"));
      c.commit();
    }

    awaitKey("after.bad");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(dlt.firstByKey).containsKey(rowId));
    String reason =
        new String(
            dlt.firstByKey.get(rowId).headers().lastHeader("tasklane.relay.reason").value(),
            StandardCharsets.UTF_8);
    assertThat(reason).startsWith("zone: 'Mars/Olympus' is not a time-zone id");
    assertThat(tasks.firstByKey).doesNotContainKey("bad.zone");
    assertThat(List.copyOf(tasks.records)).noneMatch(rec -> "bad.zone".equals(rec.key()));
  }

  private static ConsumerRecord<String, byte[]> awaitKey(String key) {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(tasks.firstByKey).containsKey(key));
    return tasks.firstByKey.get(key);
  }
}
