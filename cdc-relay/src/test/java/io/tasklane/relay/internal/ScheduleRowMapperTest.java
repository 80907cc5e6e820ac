package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** SCHEDULE / UNSCHEDULE rows become their records keyed by the name, or are rejected by field. */
class ScheduleRowMapperTest {
  private static final long NOW = 1_700_000_000_000L;
  private final RowMapper mapper = new RowMapper("tasklane_outbox", new TaskLimits(1024));
  private final String rowId = TaskIds.keyless(Clock.systemUTC());

  private static ScheduleDefinition.Builder definition() {
    return ScheduleDefinition.builder()
        .name("reports.nightly")
        .version(NOW)
        .handler("report.build")
        .every("5m");
  }

  @Test
  void aScheduleRowBecomesTheDefinitionKeyedByItsName() {
    ScheduleDefinition d = definition().build();

    var relayed = (Mapped.Relayed) mapper.map(OutboxRows.schedule(rowId, d, NOW), NOW);

    assertThat(relayed.key()).isEqualTo("reports.nightly");
    assertThat(relayed.kind()).isEqualTo(OutboxKind.SCHEDULE);
    assertThat(WireCodec.decodeTaskRecord(relayed.value())).isEqualTo(d);
  }

  @Test
  void anUnscheduleRowBecomesTheDeletionKeyedByItsName() {
    Unschedule u = Unschedule.of("reports.nightly", NOW, NOW);

    var relayed = (Mapped.Relayed) mapper.map(OutboxRows.unschedule(rowId, u), NOW);

    assertThat(relayed.key()).isEqualTo("reports.nightly");
    assertThat(relayed.kind()).isEqualTo(OutboxKind.UNSCHEDULE);
    assertThat(WireCodec.decodeTaskRecord(relayed.value())).isEqualTo(u);
  }

  @Test
  void anInvalidDefinitionIsRejectedNamingTheField() {
    OutboxRow badZone = OutboxRows.schedule(rowId, definition().zone("Mars/Olympus").build(), NOW);
    OutboxRow both = OutboxRows.schedule(rowId, definition().cron("* * * * *").build(), NOW);
    OutboxRow negative = OutboxRows.unschedule(rowId, Unschedule.of("reports.nightly", -1, NOW));

    assertThat(((Mapped.Rejected) mapper.map(badZone, NOW)).reason()).startsWith("zone: ");
    assertThat(((Mapped.Rejected) mapper.map(both, NOW)).reason())
        .startsWith("cron: set exactly one of cron and every");
    assertThat(((Mapped.Rejected) mapper.map(negative, NOW)).reason()).startsWith("version: ");
  }

  @Test
  void aDefinitionOverThePayloadLimitIsRejected() {
    String big = "{\"blob\":\"" + "x".repeat(2000) + "\"}";
    OutboxRow row =
        OutboxRows.schedule(rowId, definition().payload(WireCodec.readTree(big)).build(), NOW);

    assertThat(((Mapped.Rejected) mapper.map(row, NOW)).reason())
        .startsWith("payload: is ")
        .contains("the limit is 1024");
  }

  @Test
  void aRowKeyedByAnotherNameOrWithoutARecordIsRejected() {
    OutboxRow wrongKey =
        OutboxRows.schedule(rowId, definition().build(), NOW).toBuilder()
            .routingKey("other")
            .build();
    OutboxRow notJson =
        OutboxRows.schedule(rowId, definition().build(), NOW).toBuilder().payload("nope").build();

    assertThat(((Mapped.Rejected) mapper.map(wrongKey, NOW)).reason())
        .startsWith("routing_key: 'other'");
    assertThat(((Mapped.Rejected) mapper.map(notJson, NOW)).reason()).startsWith("payload: ");
  }
}
