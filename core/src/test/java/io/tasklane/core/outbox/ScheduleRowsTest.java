package io.tasklane.core.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskIds;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** SCHEDULE and UNSCHEDULE rows: the record travels whole in the payload, keyed by its name. */
class ScheduleRowsTest {
  private static final long NOW = 1_700_000_000_000L;
  private final String rowId = TaskIds.keyless(Clock.systemUTC());

  private static ScheduleDefinition definition() {
    return ScheduleDefinition.builder()
        .name("reports.nightly")
        .version(NOW)
        .handler("report.build")
        .payload(WireCodec.readTree("{\"report\":\"sales\"}"))
        .cron("30 2 * * *")
        .zone("Europe/Berlin")
        .maxAttempts(3)
        .build();
  }

  @Test
  void aDefinitionSurvivesTheRoundTripThroughItsRow() {
    ScheduleDefinition d = definition();

    OutboxRow row = OutboxRows.schedule(rowId, d, NOW);

    assertThat(row.kind()).isEqualTo("SCHEDULE");
    assertThat(OutboxKind.parse(row.kind()).recordType()).isEqualTo("schedule");
    assertThat(row.taskId()).isEqualTo(rowId);
    assertThat(row.routingKey()).isEqualTo("reports.nightly");
    assertThat(row.handler()).isEqualTo("report.build");
    assertThat(row.createdAt()).isEqualTo(NOW);
    assertThat(row.dueAt()).isZero();
    assertThat(row.payload()).contains("\"type\":\"schedule\"").contains("\"version\":" + NOW);
    assertThat(OutboxRows.toSchedule(row)).isEqualTo(d);
  }

  @Test
  void anUnscheduleSurvivesTheRoundTripThroughItsRow() {
    Unschedule u = Unschedule.of("reports.nightly", 42, NOW);

    OutboxRow row = OutboxRows.unschedule(rowId, u);

    assertThat(row.kind()).isEqualTo("UNSCHEDULE");
    assertThat(OutboxKind.parse(row.kind()).recordType()).isEqualTo("unschedule");
    assertThat(row.routingKey()).isEqualTo("reports.nightly");
    assertThat(row.handler()).isNull();
    assertThat(row.createdAt()).isEqualTo(NOW);
    assertThat(OutboxRows.toUnschedule(row)).isEqualTo(u);
  }

  @Test
  void theOriginTravelsAndIsLeftOutWhenAbsent() {
    ScheduleDefinition coded = definition().toBuilder().origin("code:billing-worker").build();

    assertThat(OutboxRows.toSchedule(OutboxRows.schedule(rowId, coded, NOW)).origin())
        .isEqualTo("code:billing-worker");
    assertThat(WireCodec.encodeToString(definition())).doesNotContain("origin");
  }

  @Test
  void aRowKeyedByAnotherNameIsRefusedNamingTheColumn() {
    OutboxRow row =
        OutboxRows.schedule(rowId, definition(), NOW).toBuilder().routingKey("other").build();

    assertThatThrownBy(() -> OutboxRows.toSchedule(row))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("routing_key: 'other' is not the schedule's name");
  }

  @Test
  void aPayloadThatIsNotTheKindsRecordIsRefusedNamingThePayload() {
    OutboxRow unscheduleAsSchedule =
        OutboxRows.unschedule(rowId, Unschedule.of("reports.nightly", 1, NOW)).toBuilder()
            .kind(OutboxKind.SCHEDULE)
            .build();
    OutboxRow garbage =
        OutboxRows.schedule(rowId, definition(), NOW).toBuilder().payload("{not json").build();
    OutboxRow empty =
        OutboxRows.schedule(rowId, definition(), NOW).toBuilder().payload(null).build();

    assertThatThrownBy(() -> OutboxRows.toSchedule(unscheduleAsSchedule))
        .hasMessageStartingWith("payload: a SCHEDULE row needs a \"schedule\" record");
    assertThatThrownBy(() -> OutboxRows.toSchedule(garbage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("payload: ");
    assertThatThrownBy(() -> OutboxRows.toUnschedule(empty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("payload: is null");
  }
}
