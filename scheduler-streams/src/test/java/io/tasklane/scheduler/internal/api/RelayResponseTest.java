package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.ops.RelayWatch;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The typed answer of {@code GET /api/relay} ({@link RelayResponse}) writes what the API answered
 * when it built it by hand (kept here as the reference), byte for byte: unknown, flowing and idle,
 * with and without admissions in the window, with and without instances missing.
 */
class RelayResponseTest {
  private static final long NOW = 1_800_000_000_000L;

  @Test
  void everyRelayAnswerReadsAsBefore() {
    Histogram none = new Histogram(3);
    Histogram some = new Histogram(3);
    for (long lag : new long[] {3, 5, 8, 13, 21, 34, 55, 89, 1_000, 25_000}) {
      some.recordValue(lag);
    }
    int compared = 0;
    for (long last : new long[] {-1, 0, NOW - 120_000, NOW - 60_001, NOW - 60_000, NOW - 5, NOW}) {
      for (long lastLag : new long[] {-1, 0, 42}) {
        for (Histogram lags : List.of(none, some)) {
          for (List<String> missing : List.of(List.<String>of(), List.of("10.0.0.2:8080"))) {
            RelayWatch.Figures f = new RelayWatch.Figures(last, lastLag, NOW - 45_000, lags);
            String typed = WireCodec.encodeToString(RelayResponse.of(f, missing, NOW));
            assertThat(typed).isEqualTo(WireCodec.encodeToString(before(f, missing, NOW)));
            compared++;
          }
        }
      }
    }
    assertThat(compared).isEqualTo(7 * 3 * 2 * 2);
  }

  // ---- the answer as the API built it by hand, for reference ----

  private static Map<String, Object> before(RelayWatch.Figures f, List<String> missing, long now) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(
        "status",
        f.lastAdmittedAt() < 0
            ? "unknown"
            : now - f.lastAdmittedAt() <= RelayController.IDLE_AFTER_MS ? "flowing" : "idle");
    m.put("lastAdmittedAt", f.lastAdmittedAt());
    m.put(
        "lastAdmittedAtIso",
        f.lastAdmittedAt() < 0 ? null : Instant.ofEpochMilli(f.lastAdmittedAt()).toString());
    m.put("lastLagMs", f.lastLagMs());
    Map<String, Object> recent = new LinkedHashMap<>();
    recent.put("since", f.sinceMs());
    recent.put("sinceIso", Instant.ofEpochMilli(f.sinceMs()).toString());
    recent.put("tasks", f.lags().getTotalCount());
    boolean any = f.lags().getTotalCount() > 0;
    recent.put("lagP50Ms", any ? f.lags().getValueAtPercentile(50) : null);
    recent.put("lagP99Ms", any ? f.lags().getValueAtPercentile(99) : null);
    recent.put("lagMaxMs", any ? f.lags().getMaxValue() : null);
    m.put("recent", recent);
    m.put("partial", !missing.isEmpty());
    m.put("missing", missing);
    return m;
  }
}
