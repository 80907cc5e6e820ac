package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The contract plus what only the local MariaDB offers, on the shared stack. */
@TasklaneStack
class LocalStackTest extends StackContractTest {

  private final LocalStack stack;

  LocalStackTest(LocalStack stack) {
    this.stack = stack;
  }

  @Override
  StackHandle stack() {
    return stack;
  }

  @Test
  void binlogIsRowFullWithGtid() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(stack.jdbcUrl(), stack.username(), stack.password());
        Statement s = c.createStatement()) {
      assertThat(single(s, "SELECT @@binlog_format")).isEqualTo("ROW");
      assertThat(single(s, "SELECT @@binlog_row_image")).isEqualTo("FULL");
      assertThat(single(s, "SELECT @@log_bin")).isEqualTo("1");
      assertThat(single(s, "SELECT @@gtid_strict_mode")).isEqualTo("1");
      assertThat(single(s, "SELECT @@character_set_server")).isEqualTo("utf8mb4");
      List<String> logs = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
        while (rs.next()) {
          logs.add(rs.getString("Log_name"));
        }
      }
      assertThat(logs).isNotEmpty();
      assertThat(stack.mariaDbBinlogDir().resolve(logs.get(0))).exists();
    }
  }

  @Test
  void appUserHasTheCdcGrants() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(stack.jdbcUrl(), stack.username(), stack.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW GRANTS")) {
      StringBuilder grants = new StringBuilder();
      while (rs.next()) {
        grants.append(rs.getString(1)).append('\n');
      }
      assertThat(grants.toString())
          .contains(
              "REPLICATION SLAVE", "BINLOG MONITOR", "RELOAD", "SHOW DATABASES", "LOCK TABLES")
          .contains("ALL PRIVILEGES ON `tasklane`.*");
    }
  }

  @Test
  void rootUrlAndPortsAreConsistent() throws SQLException, IOException {
    try (Connection c = DriverManager.getConnection(stack.rootJdbcUrl());
        Statement s = c.createStatement()) {
      assertThat(single(s, "SELECT @@port")).isEqualTo(Integer.toString(stack.mariaDbPort()));
      assertThat(single(s, "SELECT CURRENT_USER()")).startsWith("root@");
    }
    assertThat(stack.bootstrapServers()).isEqualTo("127.0.0.1:" + stack.kafkaPort());
    assertThat(ProcessHandle.of(stack.mariaDbPid())).isPresent();
    assertThat(ProcessHandle.of(stack.kafkaPid())).isPresent();
    try (Stream<Path> files = Files.list(stack.mariaDbBinlogDir())) {
      assertThat(files.map(p -> p.getFileName().toString())).contains("mysql-bin.index");
    }
  }

  private static String single(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
