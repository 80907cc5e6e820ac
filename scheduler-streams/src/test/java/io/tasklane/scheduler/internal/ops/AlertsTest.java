package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.AlertConfig;
import io.tasklane.scheduler.SchedulerException;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Grouping of alerts by rule, key and window, and the webhook signature, on a hand clock. */
class AlertsTest {
  static final String SECRET = "k9Qx2vLr7TzWm4Bn8YpJc3Hd6Fs1Ga5E";

  private final WorkerGroupWatcherTest.HandClock clock = new WorkerGroupWatcherTest.HandClock();
  private final List<Map<String, Object>> posts = new ArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private Alerts alerts(List<String> dead) {
    AlertConfig config =
        new AlertConfig(
            null,
            null,
            false,
            Duration.ofSeconds(60),
            dead,
            100,
            dead,
            Duration.ofSeconds(30),
            null);
    return new Alerts(config, clock, registry, (payload, group) -> posts.add(payload));
  }

  @Test
  void tenThousandDeathsInAWindowMakeOneFirstPostAndOneSummary() {
    Alerts alerts = alerts(List.of("*"));
    for (int i = 0; i < 10_000; i++) {
      alerts.dead("mail.send", "t" + i, "attempts exhausted");
      clock.millis += 5; // 50 s in all, inside the 60 s window
    }
    assertThat(posts).hasSize(1);
    assertThat(posts.get(0)).containsEntry("kind", "first").containsEntry("count", 1);
    alerts.tick();
    assertThat(posts).hasSize(1); // the window is still open
    clock.millis += 10_001;
    alerts.tick();
    assertThat(posts).hasSize(2);
    assertThat(posts.get(1))
        .containsEntry("kind", "summary")
        .containsEntry("count", 9_999)
        .containsEntry("windowCount", 10_000)
        .containsEntry("key", "mail.send");
    alerts.tick();
    assertThat(posts).hasSize(2);
    assertThat(registry.counter("tasklane.scheduler.alerts", "rule", "dead").count())
        .isEqualTo(10_000);
    assertThat(alerts.recent()).hasSize(1);
    assertThat(alerts.recent().get(0).count()).isEqualTo(10_000);
  }

  @Test
  void anOccurrenceAfterTheWindowFlushesTheOldGroupAndStartsANewOne() {
    Alerts alerts = alerts(List.of("mail.send"));
    alerts.dead("mail.send", "a", "x");
    clock.millis += 1_000;
    alerts.dead("mail.send", "b", "x");
    alerts.dead("other", "c", "x"); // rule off for this handler
    clock.millis += 60_000;
    alerts.dead("mail.send", "d", "x");
    assertThat(posts)
        .extracting(p -> p.get("kind") + "/" + p.get("count"))
        .containsExactly("first/1", "summary/1", "first/1");
    assertThat(alerts.recent()).hasSize(2);
    assertThat(alerts.recent().get(0).summary()).contains("task d");
  }

  @Test
  void noWorkerFiresOnlyForAHandlerKnownToHaveNoLiveWorkerAndRelayLagOnlyAboveItsBound() {
    HandlerWorkers workers =
        new HandlerWorkers() {
          @Override
          public OptionalInt liveConsumers(String handler) {
            return switch (handler) {
              case "idle" -> OptionalInt.of(0);
              case "busy" -> OptionalInt.of(2);
              default -> OptionalInt.empty();
            };
          }

          @Override
          public OptionalInt partitions(String handler) {
            return OptionalInt.empty();
          }
        };
    AlertConfig config =
        new AlertConfig(
            null, null, false, null, List.of(), 100, List.of("*"), Duration.ofSeconds(30), null);
    Alerts alerts =
        new Alerts(config, clock, registry, (payload, group) -> posts.add(payload), workers);
    alerts.dispatched("busy", "a");
    alerts.dispatched("unknown", "b");
    alerts.dispatched("idle", "c");
    alerts.admitted("d", 30_000);
    alerts.admitted("e", 30_001);
    assertThat(posts)
        .extracting(p -> p.get("rule") + "/" + p.get("key"))
        .containsExactly("no-worker/idle", "relay-lag/relay");
  }

  @Test
  void backlogFiresOnlyWhenTheInstanceSumStaysAboveTheThresholdForTheSustainedTime() {
    AlertConfig config =
        new AlertConfig(
            null,
            null,
            false,
            null,
            List.of(),
            100,
            List.of(),
            null,
            new AlertConfig.Backlog(100, Duration.ofSeconds(30)));
    Alerts alerts = new Alerts(config, clock, registry, (payload, group) -> posts.add(payload));
    alerts.queued("0_0", Map.of("mail.send", 60, "other", 500));
    alerts.queued("0_1", Map.of("mail.send", 41));
    alerts.tick(); // 101 queued: above from now on
    clock.millis += 20_000;
    alerts.queued("0_1", Map.of("mail.send", 40)); // back to 100: not above
    alerts.tick();
    clock.millis += 20_000;
    alerts.queued("0_1", Map.of("mail.send", 41));
    alerts.tick(); // above again, the time counts afresh
    clock.millis += 29_000;
    alerts.tick();
    assertThat(posts).extracting(p -> p.get("key")).containsExactly("other");
    clock.millis += 1_000;
    alerts.tick();
    assertThat(posts).extracting(p -> p.get("key")).containsExactly("other", "mail.send");
    assertThat(posts.get(1).get("summary").toString()).contains("101 tasks of handler mail.send");
    alerts.queued("0_0", null); // the stream task closed: its counts go
    clock.millis += 120_000;
    alerts.tick();
    int after = posts.size();
    clock.millis += 120_000;
    alerts.tick();
    assertThat(posts).hasSize(after); // 41 left: nothing raised any more
  }

  @Test
  void aWindowWithOneOccurrenceSendsNoSummary() {
    Alerts alerts = alerts(List.of("*"));
    alerts.dead("mail.send", "a", "x");
    clock.millis += 120_000;
    alerts.tick();
    assertThat(posts).hasSize(1);
  }

  @Test
  void theSignatureCoversDeliveryIdTimestampAndBodySoAReplayWithANewTimestampFails() {
    byte[] body =
        WireCodec.encode(Map.of("rule", "dead", "count", 3)); // as the delivery encodes it
    String id = "6f1c2b9e-0d4a-4e8b-9a57-3c1d2e4f5a6b";
    long at = 1_800_000_060_012L;
    String header = AlertSignature.sign(SECRET, id, at, body);
    assertThat(header).matches("sha256=[0-9a-f]{64}");
    assertThat(AlertSignature.verify(SECRET, id, String.valueOf(at), body, header)).isTrue();
    // A captured post replayed later: the same body and signature with a fresh timestamp or id.
    assertThat(AlertSignature.verify(SECRET, id, String.valueOf(at + 600_000), body, header))
        .isFalse();
    assertThat(AlertSignature.verify(SECRET, id + "0", String.valueOf(at), body, header)).isFalse();
    // The body alone is no longer what is signed.
    assertThat(header)
        .isNotEqualTo("sha256=" + HexFormat.of().formatHex(AlertSignature.mac(SECRET, body)));
    byte[] changed = new String(body, StandardCharsets.UTF_8).replace('3', '4').getBytes();
    assertThat(AlertSignature.verify(SECRET, id, String.valueOf(at), changed, header)).isFalse();
    assertThat(AlertSignature.verify(SECRET + "x", id, String.valueOf(at), body, header)).isFalse();
    assertThat(AlertSignature.verify(SECRET, id, String.valueOf(at), body, "sha256=zz")).isFalse();
    assertThat(AlertSignature.verify(SECRET, id, "soon", body, header)).isFalse();
    assertThat(AlertSignature.verify(SECRET, null, String.valueOf(at), body, header)).isFalse();
    // Exactly HMAC-SHA256 of "<id>.<timestamp>.<body>" (id "fox", timestamp 7, body "jumps"),
    // and the HMAC is the standard one (the known vector for key "key").
    assertThat(AlertSignature.sign("key", "fox", 7, "jumps".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(
            "sha256="
                + HexFormat.of()
                    .formatHex(
                        AlertSignature.mac("key", "fox.7.jumps".getBytes(StandardCharsets.UTF_8))));
    assertThat(
            HexFormat.of()
                .formatHex(
                    AlertSignature.mac(
                        "key",
                        "The quick brown fox jumps over the lazy dog"
                            .getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
  }

  @Test
  void aWebhookNeedsHttpsOrAnExplicitHttpAndAStrongSecret() {
    URI http = URI.create("http://alerts.example.com/hook");
    assertThatThrownBy(
            () -> new AlertConfig(http, SECRET, false, null, List.of(), 10, List.of(), null, null))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.alerts.webhook.url: must be an https URL");
    assertThat(
            new AlertConfig(http, SECRET, true, null, List.of(), 10, List.of(), null, null)
                .webhookUrl())
        .isEqualTo(http);
    URI https = URI.create("https://alerts.example.com/hook");
    assertThatThrownBy(
            () -> new AlertConfig(https, null, false, null, List.of(), 10, List.of(), null, null))
        .hasMessageContaining("tasklane.scheduler.alerts.webhook.secret: is required");
    assertThatThrownBy(
            () ->
                new AlertConfig(
                    https, "changeme", false, null, List.of(), 10, List.of(), null, null))
        .hasMessageContaining("tasklane.scheduler.alerts.webhook.secret: is refused");
    assertThatThrownBy(
            () ->
                new AlertConfig(
                    null, null, false, Duration.ZERO, List.of(), 10, List.of(), null, null))
        .hasMessageContaining("tasklane.scheduler.alerts.group-window");
    assertThatThrownBy(
            () ->
                new AlertConfig(
                    null, null, false, null, List.of("Bad Name"), 10, List.of(), null, null))
        .hasMessageContaining("tasklane.scheduler.alerts.dead");
    assertThat(
            new AlertConfig(https, SECRET, false, null, List.of(), 10, List.of(), null, null)
                .toString())
        .doesNotContain(SECRET);
  }
}
