package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.testkit.internal.Dirs;
import io.tasklane.testkit.internal.Processes;
import io.tasklane.testkit.internal.StackLayout;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stacks of their own: lifecycle, stale dirs of killed runs, port conflicts. Each closes its own.
 */
class OwnStackTest {

  private Path dir;

  @BeforeEach
  void newDir() {
    dir = Path.of("target", "own-stack-" + UUID.randomUUID().toString().substring(0, 8));
  }

  @AfterEach
  void removeDir() {
    Dirs.deleteRecursively(dir);
  }

  @Test
  void takenPortFailsNamingThePortAndStartsNothing() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      LocalStackConfig config = LocalStackConfig.builder().baseDir(dir).ports(port, 0, 0).build();

      assertThatThrownBy(() -> LocalStack.start(config))
          .isInstanceOf(LocalStackException.class)
          .hasMessageContaining("port " + port)
          .hasMessageContaining("mariaDbPort");
    }
    StackLayout layout = new StackLayout(dir);
    assertThat(Processes.findOurs(layout.mariaDbMarker(), Optional.empty())).isEmpty();
    assertThat(Processes.findOurs(layout.kafkaProperties().toString(), Optional.empty())).isEmpty();
  }

  @Test
  void brokerThatCannotStartFailsWithItsLogAndStopsEverything() {
    // 1 MB of heap: the broker JVM dies at once; MariaDB has started by then and must be stopped.
    LocalStackConfig config = LocalStackConfig.builder().baseDir(dir).kafkaHeap("1m").build();

    assertThatThrownBy(() -> LocalStack.start(config))
        .isInstanceOf(LocalStackException.class)
        .hasMessageStartingWith("Kafka failed to start: broker JVM exited with code")
        .hasMessageContaining("lines of " + new StackLayout(dir).kafkaLog());
    StackLayout layout = new StackLayout(dir);
    assertThat(Processes.findOurs(layout.mariaDbMarker(), Optional.empty())).isEmpty();
    assertThat(Processes.findOurs(layout.kafkaProperties().toString(), Optional.empty())).isEmpty();
  }

  @Test
  void survivesAKilledRunAndLeavesNoProcessWhenClosed() throws Exception {
    LocalStackConfig config = LocalStackConfig.builder().baseDir(dir).build();
    StackLayout layout = new StackLayout(dir);
    long firstMariaDb;
    long firstKafka;
    try (LocalStack first = LocalStack.start(config)) {
      firstMariaDb = first.mariaDbPid();
      firstKafka = first.kafkaPid();
      execute(
          first.jdbcUrl(),
          first,
          "CREATE TABLE kept (id INT PRIMARY KEY)",
          "INSERT INTO kept VALUES (42)");
      // A crash: mariadbd dies without cleaning up; its pid file stays behind.
      ProcessHandle crashed = ProcessHandle.of(firstMariaDb).orElseThrow();
      crashed.destroyForcibly(); // the handle is kept: the pid may be gone by the next lookup
      assertThat(Processes.awaitExit(crashed, Duration.ofSeconds(10))).isTrue();
    }
    assertThat(ProcessHandle.of(firstMariaDb)).isEmpty();
    assertThat(ProcessHandle.of(firstKafka)).isEmpty();
    assertThat(layout.mariaDbPidFile()).exists();

    // An orphan from a killed JVM that still runs "from our datadir", recorded in the pid file.
    Process orphan =
        new ProcessBuilder("bash", "-c", "sleep 600; :", "fake-mariadbd", layout.mariaDbMarker())
            .start();
    Files.writeString(layout.mariaDbPidFile(), orphan.pid() + "\n");

    try (LocalStack second = LocalStack.start(config)) {
      assertThat(orphan.isAlive()).isFalse();
      assertThat(second.mariaDbPid()).isNotEqualTo(firstMariaDb);
      assertThat(count(second.jdbcUrl(), second, "kept")).isEqualTo(1); // datadir reused
      firstMariaDb = second.mariaDbPid();
      firstKafka = second.kafkaPid();
    }
    assertThat(ProcessHandle.of(firstMariaDb)).isEmpty();
    assertThat(ProcessHandle.of(firstKafka)).isEmpty();
    assertThat(Processes.findOurs(layout.mariaDbMarker(), Optional.empty())).isEmpty();
  }

  private static void execute(String url, LocalStack stack, String... sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        Statement s = c.createStatement()) {
      for (String each : sql) {
        s.execute(each);
      }
    }
  }

  private static long count(String url, LocalStack stack, String table) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
