package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The one cron rule: field counts, Quartz then Spring, and the day of week both could read. */
class CronExpressionsTest {
  @Test
  void refusesASixFieldNumericDayOfWeekThatQuartzAndSpringReadDifferently() {
    for (String cron :
        new String[] {"0 0 9 ? * 1-5", "0 0 9 ? * 2", "0 0 9 ? * 1,3", "0 0 9 ? * 6L"}) {
      assertThatThrownBy(() -> CronExpressions.parse(cron))
          .isInstanceOfSatisfying(
              InvalidTaskException.class, e -> assertThat(e.field()).isEqualTo("cron"))
          .hasMessageContaining("Quartz counts 1=Sunday")
          .hasMessageContaining("Spring counts 1=Monday")
          .hasMessageContaining("MON-FRI")
          .hasMessageContaining("7-field Quartz form");
    }
  }

  @Test
  void namesSevenFieldsAndUnambiguousFormsStillParse() {
    CronExpressions.parse("0 0 9 ? * MON-FRI");
    CronExpressions.parse("0 0 9 ? * MON#2");
    CronExpressions.parse("0 0 9 ? * 1-5 *");
    CronExpressions.parse("0 0 9 * * 1-5"); // not Quartz (* in both day fields): Spring only
    CronExpressions.parse("0 0 9 1 * ?");
    CronExpressions.parse("0 9 * * 1-5");
  }

  @Test
  void aStoredDefinitionKeepsTheQuartzReading() {
    assertThat(CronExpressions.parseStored("0 0 9 ? * 1-5").asString()).isEqualTo("0 0 9 ? * 1-5");
  }
}
