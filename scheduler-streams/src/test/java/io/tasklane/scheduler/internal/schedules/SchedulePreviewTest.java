package io.tasklane.scheduler.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The next-fires preview: the scheduler's cron and rate rules, its zone, its refusals by field. */
class SchedulePreviewTest {
  static final Instant NOW = Instant.parse("2027-03-27T23:59:50.500Z");
  final SchedulePreview preview = new SchedulePreview(Clock.fixed(NOW, ZoneOffset.UTC));

  static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  @Test
  void aCronWithSecondsInAZoneListsItsNextFiresAcrossTheSpringForwardGap() {
    // 02:30 Berlin every day: on 2027-03-28 the clock jumps 02:00 -> 03:00, the fire is at 03:00
    SchedulePreview.Result r = preview.preview("0 30 2 * * ?", null, "Europe/Berlin", 3);
    assertThat(r.nextFires())
        .extracting(SchedulePreview.Fire::at)
        .containsExactly(
            at("2027-03-28T01:00:00Z"), at("2027-03-29T00:30:00Z"), at("2027-03-30T00:30:00Z"));
    assertThat(r.nextFires().get(0).local()).isEqualTo("2027-03-28T03:00+02:00");
    assertThat(r.nextFires().get(1).atIso()).isEqualTo("2027-03-29T00:30:00Z");
    assertThat(r.zone()).isEqualTo("Europe/Berlin");
  }

  @Test
  void agreesWithTheFiresTheSchedulerComputes() {
    Fires fires =
        new Fires(
            io.tasklane.core.ScheduleDefinition.builder()
                .name("s")
                .handler("h")
                .cron("*/7 * * * * ?")
                .zone("Asia/Kolkata")
                .build());
    SchedulePreview.Result r = preview.preview("*/7 * * * * ?", null, "Asia/Kolkata", null);
    assertThat(r.nextFires()).hasSize(SchedulePreview.DEFAULT_COUNT);
    long t = NOW.toEpochMilli();
    for (SchedulePreview.Fire f : r.nextFires()) {
      t = fires.after(t);
      assertThat(f.at()).isEqualTo(t);
    }
  }

  @Test
  void aFixedRateFiresAtMultiplesSinceTheEpoch() {
    SchedulePreview.Result r = preview.preview(null, "30s", null, 2);
    assertThat(r.zone()).isEqualTo("UTC");
    assertThat(r.nextFires())
        .extracting(SchedulePreview.Fire::at)
        .containsExactly(at("2027-03-28T00:00:00Z"), at("2027-03-28T00:00:30Z"));
  }

  @Test
  void aNumericDayOfWeekBothReadingsAcceptIsRefusedNamingBoth() {
    assertField(
        () -> preview.preview("0 0 9 ? * 1-5", null, "Europe/Berlin", 5),
        "cron",
        "Quartz counts 1=Sunday, 2=Monday … 7=Saturday; Spring counts 1=Monday");
    assertThat(preview.preview("0 0 9 ? * MON-FRI", null, "Europe/Berlin", 1).nextFires())
        .extracting(SchedulePreview.Fire::local)
        .containsExactly("2027-03-29T09:00+02:00");
  }

  @Test
  void aCronWhoseFiresEndEarlyCarriesAWarning() {
    SchedulePreview.Result r = preview.preview("0 0 0 29 2 ?", null, "UTC", 1);
    assertThat(r.nextFires())
        .extracting(SchedulePreview.Fire::atIso)
        .containsExactly("2028-02-29T00:00:00Z");
    assertThat(r.warnings()).singleElement().asString().contains("last time at 2096-02-29T00:00Z");
    SchedulePreview.Result never = preview.preview("0 0 0 30 2 ?", null, "UTC", 1);
    assertThat(never.nextFires()).isEmpty();
    assertThat(never.warnings()).singleElement().asString().contains("never fires");
    assertThat(preview.preview("0 0 0 28 2 ?", null, "UTC", 1).warnings()).isEmpty();
  }

  @Test
  void badInputIsRefusedNamingTheField() {
    assertField(() -> preview.preview("61 * * * *", null, "UTC", 5), "cron", "not a valid cron");
    assertField(() -> preview.preview("* * *", null, "UTC", 5), "cron", "3 fields");
    assertField(() -> preview.preview(null, null, "UTC", 5), "cron", "exactly one");
    assertField(() -> preview.preview("* * * * *", "5m", "UTC", 5), "cron", "both");
    assertField(() -> preview.preview(null, "500ms", "UTC", 5), "every", "outside 1 s");
    assertField(() -> preview.preview("* * * * *", null, "Mars/Olympus", 5), "zone", "zone id");
    assertField(() -> preview.preview("* * * * *", null, "UTC", 0), "count", "1 to 50");
    assertField(() -> preview.preview("* * * * *", null, "UTC", 51), "count", "1 to 50");
  }

  private static void assertField(Runnable call, String field, String message) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            InvalidTaskException.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageContaining(message);
  }
}
