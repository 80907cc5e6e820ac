package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored binlog position is purged while the relay is down: every row is still relayed. */
@TasklaneStack
class BinlogRecoveryTest {

  @Test
  void rereadsTheOutboxTableWhenItsBinlogPositionWasPurged(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_binlog");
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks())) {
      List<String> before;
      try (Relay relay = fx.startRelay(Clock.systemUTC())) {
        assertThat(relay.awaitStreaming(Duration.ofSeconds(90))).isTrue();
        try (Connection c = fx.connect()) {
          before = fx.insertTasks(c, 10, "before.purge");
        }
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(before));
      }
      List<String> whileDown;
      try (Connection c = fx.connect()) {
        whileDown = fx.insertTasks(c, 20, "while.down");
      }
      try (Connection root = DriverManager.getConnection(stack.rootJdbcUrl());
          Statement s = root.createStatement()) {
        s.execute("FLUSH BINARY LOGS");
        String newest;
        try (var rs = s.executeQuery("SHOW MASTER STATUS")) {
          rs.next();
          newest = rs.getString(1);
        }
        // MariaDB skips a file until its binlog checkpoint passed (and while a dump thread reads
        // it): purge until the newest file is the only one left.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> {
                  s.execute("PURGE BINARY LOGS TO '" + newest + "'");
                  try (var rs = s.executeQuery("SHOW BINARY LOGS")) {
                    rs.next();
                    return rs.getString(1).equals(newest);
                  }
                });
      }
      try (Relay relay = fx.startRelay(Clock.systemUTC())) {
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(whileDown));
        assertThat(relay.status().binlogRecoveries()).isEqualTo(1);
        assertThat(relay.awaitStreaming(Duration.ofSeconds(30))).isTrue();
        List<String> after;
        try (Connection c = fx.connect()) {
          after = fx.insertTasks(c, 5, "after.recovery");
        }
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(after));
      }
    }
  }
}
