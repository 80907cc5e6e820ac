package io.tasklane.scheduler.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.ScheduleDefinition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warnings of a definition whose fires end early: never, or before its endAt. */
class FireHorizonTest {
  static final long NOW = Instant.parse("2027-01-15T08:00:00Z").toEpochMilli();

  static List<String> warnings(String cron, String zone, Long endAt) {
    ScheduleDefinition d =
        ScheduleDefinition.builder()
            .name("s")
            .handler("h")
            .cron(cron)
            .zone(zone)
            .endAt(endAt)
            .build();
    return FireHorizon.warnings(d, new Fires(d), NOW);
  }

  static long year(int y) {
    return Instant.parse(y + "-01-01T00:00:00Z").toEpochMilli();
  }

  @Test
  void aCronWhoseFiresEndBeforeItsEndAtIsWarnedAboutWithItsLastFire() {
    assertThat(warnings("0 0 0 29 2 ?", "Europe/Berlin", null))
        .singleElement()
        .asString()
        .contains("cron: '0 0 0 29 2 ?' fires for the last time at 2096-02-29T00:00+01:00")
        .contains("2096-02-28T23:00:00Z")
        .contains("it has no endAt")
        .contains("up to the end of 2099");
    assertThat(warnings("0 0 0 29 2 ?", "UTC", year(2150)))
        .singleElement()
        .asString()
        .contains("its endAt is 2150-01-01T00:00:00Z");
    assertThat(warnings("0 0 12 1 1 ? 2030", "UTC", null))
        .singleElement()
        .asString()
        .contains("last time at 2030-01-01T12:00Z");
    // the third Friday, 2030 to 2040: the cron library's search backwards stops a month short
    assertThat(warnings("0 15 10 ? * FRI#3 2030-2040", "UTC", null))
        .singleElement()
        .asString()
        .contains("last time at 2040-12-21T10:15Z");
  }

  @Test
  void aCronThatNeverFiresIsWarnedAbout() {
    assertThat(warnings("0 0 0 30 2 ?", "UTC", null))
        .singleElement()
        .asString()
        .contains("has no fire after now in UTC")
        .contains("never fires");
    assertThat(warnings("0 0 12 1 1 ? 2026", "UTC", null))
        .singleElement()
        .asString()
        .contains("never fires");
    assertThat(warnings("0 12 * * *", "UTC", NOW - 1))
        .singleElement()
        .asString()
        .contains("before its endAt 2027-01-15T07:59:59.999Z");
  }

  @Test
  void firesThatGoOnToTheirEndAtOrIntoTheLastYearAreNotWarnedAbout() {
    assertThat(warnings("0 0 0 29 2 ?", "UTC", year(2090))).isEmpty(); // 2088 is before endAt
    assertThat(warnings("0 0 12 * * ?", "Europe/Berlin", null)).isEmpty(); // to 2099-12-31
    assertThat(warnings("0 0 0 31 12 ?", "UTC", null)).isEmpty();
    assertThat(warnings("0 0 29 2 *", "UTC", null)).isEmpty(); // 5 fields: no year limit
    assertThat(warnings("*/10 * * * * ?", "UTC", year(2030))).isEmpty();
    ScheduleDefinition rate =
        ScheduleDefinition.builder().name("s").handler("h").every("1d").build();
    assertThat(FireHorizon.warnings(rate, new Fires(rate), NOW)).isEmpty();
  }
}
