package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.schedules.FiresTest.between;
import static io.tasklane.scheduler.internal.schedules.FiresTest.cron;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cron fires around both daylight-saving changes in Europe/Berlin (02:00–03:00 skipped, 02:00–03:00
 * repeated), America/New_York (02:00–03:00 skipped, 01:00–02:00 repeated) and Australia/Lord_Howe
 * (a 30-minute change: 02:00–02:30 skipped, 01:30–02:00 repeated). A schedule whose hour is a
 * wildcard or a step fires at both occurrences of a repeated local time; fixed hours fire once, at
 * the first occurrence; a fixed time in the gap fires once, at the end of the gap.
 */
class FiresDaylightSavingTest {
  static final String BERLIN = "Europe/Berlin";
  static final String NEW_YORK = "America/New_York";
  static final String LORD_HOWE = "Australia/Lord_Howe";

  static long at(String offsetDateTime) {
    return OffsetDateTime.parse(offsetDateTime).toInstant().toEpochMilli();
  }

  /**
   * Asserts that the fires from {@code from} to {@code to} (inclusive) are exactly {@code expected}
   * and that {@code atOrBefore} agrees with them.
   */
  static void assertFires(String cron, String zone, String from, String to, String... expected) {
    Fires f = cron(cron, zone);
    long[] want = Arrays.stream(expected).mapToLong(FiresDaylightSavingTest::at).toArray();
    assertThat(between(f, at(from), at(to)))
        .as("%s in %s", cron, zone)
        .containsExactly(Arrays.stream(want).boxed().toArray(Long[]::new));
    for (int i = 1; i < want.length; i++) {
      assertThat(f.atOrBefore(want[i])).as("atOrBefore %s", expected[i]).isEqualTo(want[i]);
      assertThat(f.atOrBefore(want[i] - 1))
          .as("atOrBefore just before %s", expected[i])
          .isEqualTo(want[i - 1]);
    }
  }

  /**
   * Asserts that the fires from {@code from} to {@code to} are every {@code minutes} in real time.
   */
  static void assertEvery(int minutes, String cron, String zone, String from, String to) {
    Fires f = cron(cron, zone);
    long period = minutes * 60_000L;
    List<Long> fires = between(f, at(from), at(to));
    assertThat(fires).as("%s in %s", cron, zone).hasSize((int) ((at(to) - at(from)) / period) + 1);
    for (int i = 1; i < fires.size(); i++) {
      assertThat(fires.get(i) - fires.get(i - 1))
          .as("%s in %s: the fire after %s", cron, zone, fires.get(i - 1))
          .isEqualTo(period);
      assertThat(f.atOrBefore(fires.get(i) - 1)).isEqualTo(fires.get(i - 1));
      assertThat(f.after(fires.get(i - 1))).isEqualTo(fires.get(i));
    }
  }

  @Test
  void berlinFallBackFiresFrequentSchedulesThroughTheRepeatedHourAndFixedTimesOnce() {
    String from = "2027-10-31T01:00+02:00";
    String to = "2027-10-31T04:00+01:00";
    assertEvery(10, "*/10 * * * *", BERLIN, from, to);
    assertEvery(15, "0 */15 * * * ?", BERLIN, from, to);
    assertEvery(60, "0 0 * * * ?", BERLIN, from, to);
    assertFires(
        "0 0 */2 * * ?",
        BERLIN,
        "2027-10-30T23:00+02:00",
        "2027-10-31T05:00+01:00",
        "2027-10-31T00:00+02:00",
        "2027-10-31T02:00+02:00",
        "2027-10-31T02:00+01:00",
        "2027-10-31T04:00+01:00");
    assertFires(
        "30 2 * * *",
        BERLIN,
        "2027-10-30T12:00+02:00",
        "2027-11-01T12:00+01:00",
        "2027-10-31T02:30+02:00",
        "2027-11-01T02:30+01:00");
  }

  @Test
  void berlinSpringForwardFiresEachScheduleOnceThroughTheGap() {
    String from = "2027-03-28T01:00+01:00";
    String to = "2027-03-28T05:00+02:00";
    assertEvery(10, "*/10 * * * *", BERLIN, from, to);
    assertEvery(15, "0 */15 * * * ?", BERLIN, from, to);
    assertEvery(60, "0 0 * * * ?", BERLIN, from, to);
    assertFires(
        "0 0 */2 * * ?",
        BERLIN,
        "2027-03-27T23:00+01:00",
        "2027-03-28T05:00+02:00",
        "2027-03-28T00:00+01:00",
        "2027-03-28T03:00+02:00", // 02:00 does not exist
        "2027-03-28T04:00+02:00");
    assertFires(
        "0 30 2 * * ?",
        BERLIN,
        "2027-03-27T12:00+01:00",
        "2027-03-29T12:00+02:00",
        "2027-03-28T03:00+02:00",
        "2027-03-29T02:30+02:00");
  }

  @Test
  void newYorkFallBackFiresFrequentSchedulesThroughTheRepeatedHourAndFixedTimesOnce() {
    String from = "2027-11-07T00:00-04:00";
    String to = "2027-11-07T03:00-05:00";
    assertEvery(10, "*/10 * * * *", NEW_YORK, from, to);
    assertEvery(15, "0 */15 * * * ?", NEW_YORK, from, to);
    assertEvery(60, "0 0 * * * ?", NEW_YORK, from, to);
    assertFires(
        "0 0 */2 * * ?",
        NEW_YORK,
        "2027-11-06T23:00-04:00",
        "2027-11-07T05:00-05:00",
        "2027-11-07T00:00-04:00",
        "2027-11-07T02:00-05:00",
        "2027-11-07T04:00-05:00");
    assertFires(
        "30 2 * * *",
        NEW_YORK,
        "2027-11-06T12:00-04:00",
        "2027-11-08T12:00-05:00",
        "2027-11-07T02:30-05:00",
        "2027-11-08T02:30-05:00");
    assertFires( // 01:30 is the repeated local time in New York
        "0 30 1 * * ?",
        NEW_YORK,
        "2027-11-06T12:00-04:00",
        "2027-11-08T12:00-05:00",
        "2027-11-07T01:30-04:00",
        "2027-11-08T01:30-05:00");
    assertFires( // an odd-hour step: 01:00 is repeated
        "0 0 1/2 * * ?",
        NEW_YORK,
        "2027-11-06T23:30-04:00",
        "2027-11-07T04:00-05:00",
        "2027-11-07T01:00-04:00",
        "2027-11-07T01:00-05:00",
        "2027-11-07T03:00-05:00");
  }

  @Test
  void newYorkSpringForwardFiresEachScheduleOnceThroughTheGap() {
    String from = "2027-03-14T00:00-05:00";
    String to = "2027-03-14T05:00-04:00";
    assertEvery(10, "*/10 * * * *", NEW_YORK, from, to);
    assertEvery(15, "0 */15 * * * ?", NEW_YORK, from, to);
    assertEvery(60, "0 0 * * * ?", NEW_YORK, from, to);
    assertFires(
        "0 0 */2 * * ?",
        NEW_YORK,
        "2027-03-13T23:00-05:00",
        "2027-03-14T05:00-04:00",
        "2027-03-14T00:00-05:00",
        "2027-03-14T03:00-04:00", // 02:00 does not exist
        "2027-03-14T04:00-04:00");
    assertFires(
        "30 2 * * *",
        NEW_YORK,
        "2027-03-13T12:00-05:00",
        "2027-03-15T12:00-04:00",
        "2027-03-14T03:00-04:00",
        "2027-03-15T02:30-04:00");
  }

  @Test
  void lordHoweFallBackFiresTheRepeatedHalfHourTwiceForFrequentSchedules() {
    // 02:00 +11:00 -> 01:30 +10:30: 01:30-02:00 occurs twice
    String from = "2028-04-02T01:00+11:00";
    String to = "2028-04-02T03:00+10:30";
    assertEvery(10, "*/10 * * * *", LORD_HOWE, from, to);
    assertEvery(15, "0 */15 * * * ?", LORD_HOWE, from, to);
    assertFires( // no whole hour is repeated: 01:00 to 02:00 takes 90 minutes
        "0 0 * * * ?",
        LORD_HOWE,
        "2028-04-02T00:30+11:00",
        "2028-04-02T03:30+10:30",
        "2028-04-02T01:00+11:00",
        "2028-04-02T02:00+10:30",
        "2028-04-02T03:00+10:30");
    assertFires(
        "0 0 */2 * * ?",
        LORD_HOWE,
        "2028-04-01T23:00+11:00",
        "2028-04-02T05:00+10:30",
        "2028-04-02T00:00+11:00",
        "2028-04-02T02:00+10:30",
        "2028-04-02T04:00+10:30");
    assertFires(
        "30 2 * * *",
        LORD_HOWE,
        "2028-04-01T12:00+11:00",
        "2028-04-03T12:00+10:30",
        "2028-04-02T02:30+10:30",
        "2028-04-03T02:30+10:30");
    assertFires( // 01:45 is repeated: fixed hours fire at the first occurrence only
        "0 45 1 * * ?",
        LORD_HOWE,
        "2028-04-01T12:00+11:00",
        "2028-04-03T12:00+10:30",
        "2028-04-02T01:45+11:00",
        "2028-04-03T01:45+10:30");
    assertFires( // every 10 minutes of hour 1 (a fixed hour): the repeated half hour fires once
        "0 */10 1 * * ?",
        LORD_HOWE,
        "2028-04-02T01:25+11:00",
        "2028-04-02T03:00+10:30",
        "2028-04-02T01:30+11:00",
        "2028-04-02T01:40+11:00",
        "2028-04-02T01:50+11:00");
  }

  @Test
  void lordHoweSpringForwardFiresATimeInTheHalfHourGapAtItsEnd() {
    // 02:00 +10:30 -> 02:30 +11:00: 02:00-02:30 does not exist
    String from = "2027-10-03T01:00+10:30";
    String to = "2027-10-03T04:00+11:00";
    assertEvery(10, "*/10 * * * *", LORD_HOWE, from, to);
    assertEvery(15, "0 */15 * * * ?", LORD_HOWE, from, to);
    assertFires(
        "0 0 * * * ?",
        LORD_HOWE,
        "2027-10-03T00:30+10:30",
        "2027-10-03T03:30+11:00",
        "2027-10-03T01:00+10:30",
        "2027-10-03T02:30+11:00", // 02:00 does not exist
        "2027-10-03T03:00+11:00");
    assertFires(
        "0 0 */2 * * ?",
        LORD_HOWE,
        "2027-10-02T23:00+10:30",
        "2027-10-03T05:00+11:00",
        "2027-10-03T00:00+10:30",
        "2027-10-03T02:30+11:00",
        "2027-10-03T04:00+11:00");
    assertFires(
        "30 2 * * *",
        LORD_HOWE,
        "2027-10-02T12:00+10:30",
        "2027-10-04T12:00+11:00",
        "2027-10-03T02:30+11:00",
        "2027-10-04T02:30+11:00");
    assertFires(
        "0 15 2 * * ?",
        LORD_HOWE,
        "2027-10-02T12:00+10:30",
        "2027-10-04T12:00+11:00",
        "2027-10-03T02:30+11:00", // 02:15 does not exist
        "2027-10-04T02:15+11:00");
  }
}
