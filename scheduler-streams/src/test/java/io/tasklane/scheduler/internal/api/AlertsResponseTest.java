package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.ops.AlertGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GET /api/alerts} as clients read it, and as one instance reads another's. */
class AlertsResponseTest {
  private static final AlertGroup.Snapshot GROUP =
      new AlertGroup.Snapshot(
          "dead", "billing.charge", 1_767_225_600_000L, 1_767_225_660_500L, 7, true, "7 DEAD");

  @Test
  void anAlertIsWrittenWithItsTimesInBothFormsAndTheInstance() {
    AlertsResponse r =
        new AlertsResponse(
            List.of(AlertsResponse.Alert.of(GROUP, "s1:8080")), true, List.of("s2:8080"));
    assertThat(WireCodec.encodeToString(r))
        .isEqualTo(
            "{\"alerts\":[{\"rule\":\"dead\",\"key\":\"billing.charge\","
                + "\"firstAt\":1767225600000,\"firstAtIso\":\"2026-01-01T00:00:00Z\","
                + "\"lastAt\":1767225660500,\"lastAtIso\":\"2026-01-01T00:01:00.500Z\","
                + "\"count\":7,\"sent\":true,\"summary\":\"7 DEAD\",\"instance\":\"s1:8080\"}],"
                + "\"partial\":true,\"missing\":[\"s2:8080\"]}");
  }

  @Test
  void aForwardedAnswerReadsBackAsTheSameAlerts() {
    AlertsResponse sent =
        new AlertsResponse(List.of(AlertsResponse.Alert.of(GROUP, "s2:8080")), false, List.of());
    AlertsResponse read =
        WireCodec.treeToValue(
            WireCodec.readTree(WireCodec.encodeToString(sent)), AlertsResponse.class);
    assertThat(read.alerts()).isEqualTo(sent.alerts());
  }

  @Test
  void anEarlierInstancesForwardedAnswerHasOnlyTheAlerts() {
    String earlier =
        "{\"alerts\":[{\"rule\":\"stuck\",\"key\":\"k\",\"firstAt\":1,\"firstAtIso\":\"x\","
            + "\"lastAt\":2,\"lastAtIso\":\"y\",\"count\":1,\"sent\":false,\"summary\":\"s\","
            + "\"instance\":\"s3:8080\"}]}";
    AlertsResponse read = WireCodec.treeToValue(WireCodec.readTree(earlier), AlertsResponse.class);
    assertThat(read.alerts())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.rule()).isEqualTo("stuck");
              assertThat(a.lastAt()).isEqualTo(2);
              assertThat(a.instance()).isEqualTo("s3:8080");
            });
  }
}
