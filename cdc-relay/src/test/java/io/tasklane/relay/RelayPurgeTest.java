package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Purge deletes relayed rows only once they are older than the retention (injected clock). */
@TasklaneStack
class RelayPurgeTest {

  @Test
  void purgeKeepsYoungRowsAndDeletesRelayedRowsOnceOlderThanTheRetention(LocalStack stack)
      throws Exception {
    var fx = new RelayFixture(stack, "relay_purge");
    var clock = new RelayFixture.MovableClock();
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
        Relay relay =
            fx.startRelay(
                clock,
                "tasklane.relay.purge-interval",
                "100ms",
                "tasklane.relay.retention",
                "10m")) {
      assertThat(relay.awaitStreaming(Duration.ofSeconds(90))).isTrue();
      List<String> ids;
      try (Connection c = fx.connect()) {
        ids = fx.insertTasks(c, 50, "purge.me");
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(ids));
      await().atMost(Duration.ofSeconds(10)).until(() -> relay.status().watermark() > 0);
      double runsBefore = purgeRuns(relay);
      await().atMost(Duration.ofSeconds(10)).until(() -> purgeRuns(relay) >= runsBefore + 3);
      assertThat(fx.count()).as("young rows survive purge passes").isEqualTo(50);

      clock.advance(Duration.ofMinutes(11).toMillis());
      await().atMost(Duration.ofSeconds(10)).until(() -> fx.count() == 0);
      assertThat(relay.status().purged()).isEqualTo(50);
      await().atMost(Duration.ofSeconds(10)).until(() -> relay.status().ignored() >= 50);
      assertThat(tasks.records.stream().filter(r -> ids.contains(r.key())).count())
          .as("purge deletes are not relayed")
          .isEqualTo(50);
    }
  }

  private static double purgeRuns(Relay relay) {
    Matcher m =
        Pattern.compile("(?m)^tasklane_relay_purge_runs_total(?:\\{[^}]*\\})? (\\S+)")
            .matcher(relay.metricsText());
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
