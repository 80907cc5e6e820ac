package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.schedules.SchedulePreview;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/schedules/preview}: the typed answer writes what the API answered when it built
 * it by hand (kept here as the reference), byte for byte, with and without warnings, for a cron and
 * for a rate; a bad field is answered with the field named.
 */
class SchedulePreviewResponseTest {
  private final SchedulePreview preview =
      new SchedulePreview(Clock.fixed(Instant.parse("2027-03-27T23:59:50.500Z"), ZoneOffset.UTC));

  @Test
  void everyPreviewReadsAsBefore() {
    List<SchedulePreview.Result> results =
        List.of(
            preview.preview("0 30 2 * * ?", null, "Europe/Berlin", 3),
            preview.preview(null, "30s", null, 2),
            preview.preview("0 0 0 29 2 ?", null, "UTC", 1));
    assertThat(results.get(2).warnings()).isNotEmpty();
    for (SchedulePreview.Result r : results) {
      assertThat(WireCodec.encodeToString(SchedulePreviewResponse.of(r)))
          .isEqualTo(WireCodec.encodeToString(before(r)));
    }
    assertThat(WireCodec.encodeToString(SchedulePreviewResponse.of(results.get(1))))
        .isEqualTo(
            "{\"valid\":true,\"every\":\"30s\",\"zone\":\"UTC\",\"nextFires\":["
                + "{\"at\":1806192000000,\"atIso\":\"2027-03-28T00:00:00Z\","
                + "\"local\":\"2027-03-28T00:00Z\"},"
                + "{\"at\":1806192030000,\"atIso\":\"2027-03-28T00:00:30Z\","
                + "\"local\":\"2027-03-28T00:00:30Z\"}]}");
  }

  @Test
  void aBadFieldIsNamed() {
    InvalidTaskException e =
        catchThrowableOfType(
            () -> preview.preview("61 * * * *", null, "UTC", 1), InvalidTaskException.class);
    String json = WireCodec.encodeToString(SchedulePreviewResponse.Invalid.of(e));
    assertThat(WireCodec.readTree(json).path("valid").asBoolean(true)).isFalse();
    assertThat(WireCodec.readTree(json).path("error").asText()).isEqualTo("invalid");
    assertThat(WireCodec.readTree(json).path("field").asText()).isEqualTo("cron");
    assertThat(WireCodec.readTree(json).path("message").asText()).contains("61");
  }

  /** The answer as the API built it by hand. */
  private static Map<String, Object> before(SchedulePreview.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("valid", true);
    if (r.cron() != null) {
      m.put("cron", r.cron());
    }
    if (r.every() != null) {
      m.put("every", r.every());
    }
    m.put("zone", r.zone());
    m.put("nextFires", r.nextFires());
    if (!r.warnings().isEmpty()) {
      m.put("warnings", r.warnings());
    }
    return m;
  }
}
