package io.tasklane.scheduler.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.MisfirePolicy;
import io.tasklane.core.ScheduleDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fire instants (cron in a zone, fixed rate, window) and the misfire policies, as pure functions.
 */
class FiresTest {
  static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  static Fires cron(String cron, String zone) {
    return new Fires(
        ScheduleDefinition.builder().name("s").handler("h").cron(cron).zone(zone).build());
  }

  static List<Long> between(Fires f, long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long t = f.after(from - 1); t != Fires.NONE && t <= to; t = f.after(t)) {
      out.add(t);
    }
    return out;
  }

  @Test
  void springForwardFiresANonExistentLocalTimeOnceAtTheEndOfTheGap() {
    Fires f = cron("30 2 * * *", "Europe/Berlin");
    assertThat(between(f, at("2027-03-27T00:00:00Z"), at("2027-03-29T23:00:00Z")))
        .containsExactly(
            at("2027-03-27T01:30:00Z"), // 02:30 CET
            at("2027-03-28T01:00:00Z"), // 02:30 does not exist: 03:00 CEST
            at("2027-03-29T00:30:00Z")); // 02:30 CEST
    assertThat(f.atOrBefore(at("2027-03-28T01:00:30Z"))).isEqualTo(at("2027-03-28T01:00:00Z"));
  }

  @Test
  void fallBackFiresARepeatedLocalTimeOnceAtItsFirstOccurrence() {
    Fires f = cron("30 2 * * *", "Europe/Berlin");
    assertThat(between(f, at("2027-10-30T00:00:00Z"), at("2027-11-01T23:00:00Z")))
        .containsExactly(
            at("2027-10-30T00:30:00Z"), // 02:30 CEST
            at("2027-10-31T00:30:00Z"), // first 02:30 (CEST); not again at 01:30Z (CET)
            at("2027-11-01T01:30:00Z")); // 02:30 CET
    // Inside the repeated hour, the last fire is the first 02:30, not the day before's.
    assertThat(f.atOrBefore(at("2027-10-31T01:10:00Z"))).isEqualTo(at("2027-10-31T00:30:00Z"));
    assertThat(f.after(at("2027-10-31T01:10:00Z"))).isEqualTo(at("2027-11-01T01:30:00Z"));
  }

  @Test
  void cronFormsWithAndWithoutSeconds() {
    long t0 = at("2027-01-15T08:00:00Z");
    assertThat(between(cron("*/5 * * * *", "UTC"), t0, t0 + 600_000))
        .containsExactly(t0, t0 + 300_000, t0 + 600_000);
    assertThat(between(cron("*/20 * * * * ?", "UTC"), t0, t0 + 40_000))
        .containsExactly(t0, t0 + 20_000, t0 + 40_000);
    assertThat(between(cron("0/30 * * * * ? *", "UTC"), t0, t0 + 60_000))
        .containsExactly(t0, t0 + 30_000, t0 + 60_000);
    assertThat(between(cron("*/20 * * * * *", "UTC"), t0, t0 + 40_000))
        .containsExactly(t0, t0 + 20_000, t0 + 40_000);
    assertThat(cron("*/20 * * * * *", "UTC").atOrBefore(t0 + 39_999)).isEqualTo(t0 + 20_000);
  }

  @Test
  void badCronIsRefusedNamingTheField() {
    assertThatThrownBy(() -> cron("61 * * * *", "UTC"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("cron: ");
    assertThatThrownBy(() -> cron("* * *", "UTC")).hasMessageContaining("has 3 fields");
  }

  @Test
  void aNumericDayOfWeekBothReadingsAcceptIsRefusedWhenDefinedButAStoredOneKeepsFiring() {
    ScheduleDefinition d =
        ScheduleDefinition.builder().name("s").handler("h").cron("0 0 9 ? * 1-5").build();
    assertThatThrownBy(() -> new Fires(d))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("Quartz counts 1=Sunday")
        .hasMessageContaining("Spring counts 1=Monday");
    // stored before the rule: the Quartz reading it was accepted with (Sunday to Thursday)
    assertThat(Fires.stored(d).after(at("2027-01-15T10:00:00Z"))) // a Friday
        .isEqualTo(at("2027-01-17T09:00:00Z"));
  }

  @Test
  void fixedRateIsAlignedToStartAtAndEndsBeforeEndAt() {
    long t0 = at("2027-01-15T08:00:00Z");
    Fires f =
        new Fires(
            ScheduleDefinition.builder()
                .name("s")
                .handler("h")
                .every("10s")
                .startAt(t0 + 2_500)
                .endAt(t0 + 40_000)
                .build());
    assertThat(between(f, t0 - 60_000, t0 + 120_000))
        .containsExactly(t0 + 2_500, t0 + 12_500, t0 + 22_500, t0 + 32_500);
    assertThat(f.atOrBefore(t0 + 2_000)).isEqualTo(Fires.NONE);
    assertThat(f.atOrBefore(t0 + 99_000)).isEqualTo(t0 + 32_500);
  }

  @Test
  void misfirePoliciesArePureFunctionsOfTheCalendar() {
    Fires f = new Fires(ScheduleDefinition.builder().name("s").handler("h").every("10s").build());
    long t = at("2027-01-15T08:00:00Z");
    long now = t + 95_500; // fires t .. t+90s are due; the latest is 5.5 s late
    assertThat(Misfires.toFire(MisfirePolicy.parse("SKIP"), f, t, now, 1_000)).isEmpty();
    assertThat(Misfires.toFire(MisfirePolicy.parse("SKIP"), f, t, t + 200, 1_000))
        .containsExactly(t);
    assertThat(Misfires.toFire(MisfirePolicy.parse("FIRE_ONCE"), f, t, now, 1_000))
        .containsExactly(t + 90_000);
    assertThat(Misfires.toFire(MisfirePolicy.DEFAULT, f, t, now, 1_000)).isEmpty();
    assertThat(Misfires.toFire(MisfirePolicy.DEFAULT, f, t, t + 94_000, 1_000))
        .containsExactly(t + 90_000);
    assertThat(Misfires.toFire(MisfirePolicy.parse("FIRE_ALL(max 3)"), f, t, now, 1_000))
        .containsExactly(t + 70_000, t + 80_000, t + 90_000);
    assertThat(Misfires.toFire(MisfirePolicy.parse("FIRE_ALL(max 100)"), f, t, t + 25_000, 1_000))
        .containsExactly(t, t + 10_000, t + 20_000);
  }

  @Test
  void aTimerLateWithinTheThresholdMakesEveryFireItOwes() {
    Fires f = new Fires(ScheduleDefinition.builder().name("s").handler("h").every("1s").build());
    long t = at("2027-01-15T08:00:00Z");
    // the timer for t is found 2.5 s late: t, t+1s, t+2s are due, all within 5 s
    assertThat(Misfires.toFire(MisfirePolicy.DEFAULT, f, t, t + 2_500, 1_000))
        .containsExactly(t, t + 1_000, t + 2_000);
    // found 7.2 s late: only the fires late by at most 5 s (t+3s .. t+7s) are made
    assertThat(Misfires.toFire(MisfirePolicy.DEFAULT, f, t, t + 7_200, 1_000))
        .containsExactly(t + 3_000, t + 4_000, t + 5_000, t + 6_000, t + 7_000);
    // SKIP makes the fires that are on time (late by at most the tolerance)
    assertThat(Misfires.toFire(MisfirePolicy.parse("SKIP"), f, t, t + 2_500, 1_000))
        .containsExactly(t + 2_000);
    // a day-long threshold on a 1-second calendar is bounded
    assertThat(
            Misfires.toFire(
                MisfirePolicy.parse("FIRE_ONCE_IF_LATE_BY_AT_MOST(1d)"),
                f,
                t,
                t + 3_600_000,
                1_000))
        .hasSize(Misfires.MAX_WITHIN)
        .endsWith(t + 3_600_000);
  }
}
