package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Bad-input catalogue: the database is down at start, or the relay's credentials have expired
 * (MariaDB then answers "You must SET PASSWORD before executing this statement"). The relay reports
 * the cause in {@code lastError} (the log and {@code Relay.status()}; {@code /health} shows the
 * state only), keeps retrying with backoff instead of exiting or going FAILED, and streams once the
 * credentials work again.
 */
@TasklaneStack
class StartupFaultsTest {

  @Test
  void databaseDownAtStartIsReportedAndRetried(LocalStack stack) throws Exception {
    RelayFixture fx = new RelayFixture(stack, "relay_dbdown");
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort(); // closed again: nothing listens there
    }
    String url = "jdbc:mariadb://127.0.0.1:" + deadPort + "/" + fx.database;
    try (Relay relay = fx.startRelay(Clock.systemUTC(), "tasklane.relay.jdbc-url", url)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                RelayStatus s = relay.status();
                assertThat(s.lastError()).isNotNull().containsIgnoringCase("connect");
                assertThat(s.state()).isIn(RelayState.STARTING, RelayState.STANDBY);
              });
      assertThat(relay.status().relayed()).isZero();
    }
  }

  @Test
  void expiredCredentialsAreReportedAndTheRelayRecoversOnceRenewed(LocalStack stack)
      throws Exception {
    RelayFixture fx = new RelayFixture(stack, "relay_expired");
    String user = "relay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    root(
        stack,
        "CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw1'",
        "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES"
            + " ON *.* TO '"
            + user
            + "'@'%'",
        "GRANT ALL ON " + fx.database + ".* TO '" + user + "'@'%'",
        "ALTER USER '" + user + "'@'%' PASSWORD EXPIRE");
    try (Relay relay =
        fx.startRelay(
            Clock.systemUTC(), "tasklane.relay.username", user, "tasklane.relay.password", "pw1")) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> assertThat(relay.status().lastError()).isNotNull().contains("SET PASSWORD"));
      assertThat(relay.state()).isNotIn(RelayState.STREAMING, RelayState.FAILED);

      root(stack, "ALTER USER '" + user + "'@'%' IDENTIFIED BY 'pw1' PASSWORD EXPIRE NEVER");

      assertThat(relay.awaitStreaming(Duration.ofSeconds(90))).isTrue();
      String id;
      try (Connection c = fx.connect()) {
        id = fx.insertTasks(c, 1, "after.renewal").get(0);
      }
      try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks())) {
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(tasks.firstByKey).containsKey(id));
      }
    } finally {
      root(stack, "DROP USER IF EXISTS '" + user + "'@'%'");
    }
  }

  private static void root(LocalStack stack, String... sql) throws Exception {
    try (Connection c = DriverManager.getConnection(stack.rootJdbcUrl());
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }
}
