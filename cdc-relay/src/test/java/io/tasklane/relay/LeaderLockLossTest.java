package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A leader whose lock connection dies stops its engine, contends again and resumes. */
@TasklaneStack
class LeaderLockLossTest {

  @Test
  void stopsTheEngineWhenTheLockConnectionDiesThenLeadsAgain(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_lockloss");
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
        Relay relay = fx.startRelay(Clock.systemUTC())) {
      assertThat(relay.awaitStreaming(Duration.ofSeconds(90))).isTrue();
      assertThat(leaderships(relay)).isEqualTo(1);

      try (Connection root = DriverManager.getConnection(stack.rootJdbcUrl());
          PreparedStatement holder = root.prepareStatement("SELECT IS_USED_LOCK(?)")) {
        holder.setString(1, "tasklane_relay_" + fx.database);
        long connectionId;
        try (var rs = holder.executeQuery()) {
          rs.next();
          connectionId = rs.getLong(1);
        }
        assertThat(connectionId).isPositive();
        root.createStatement().execute("KILL CONNECTION " + connectionId);
      }

      await().atMost(Duration.ofSeconds(30)).until(() -> leaderships(relay) >= 2);
      assertThat(relay.awaitStreaming(Duration.ofSeconds(60))).isTrue();
      List<String> ids;
      try (Connection c = fx.connect()) {
        ids = fx.insertTasks(c, 10, "after.lock.loss");
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(ids));
    }
  }

  private static double leaderships(Relay relay) {
    Matcher m =
        Pattern.compile("(?m)^tasklane_relay_leaderships_total(?:\\{[^}]*\\})? (\\S+)")
            .matcher(relay.metricsText());
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
