package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/** {@link LocalStack#restartKafka} and {@link LocalStack#restartMariaDb} keep ports and data. */
class RestartTest {

  @Test
  void restartsKeepPortsAndData() throws Exception {
    Path dir = Path.of("target", "restart-stack-" + UUID.randomUUID().toString().substring(0, 8));
    try (LocalStack stack =
        LocalStack.start(LocalStackConfig.builder().baseDir(dir).deleteOnClose(true).build())) {
      String url = stack.createDatabase("restart_test");
      try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
        s.execute("INSERT INTO t VALUES (7)");
      }
      Map<String, Object> props =
          Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
      try (Admin admin = Admin.create(props)) {
        admin
            .createTopics(List.of(new NewTopic("kept", 1, (short) 1)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      long kafkaPid = stack.kafkaPid();
      String bootstrap = stack.bootstrapServers();

      stack.restartKafka(Duration.ZERO);

      assertThat(stack.kafkaPid()).isNotEqualTo(kafkaPid);
      assertThat(stack.bootstrapServers()).isEqualTo(bootstrap);
      try (Admin admin = Admin.create(props)) {
        assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("kept");
      }

      long mariaDbPid = stack.mariaDbPid();
      stack.restartMariaDb(Duration.ZERO);

      assertThat(stack.mariaDbPid()).isNotEqualTo(mariaDbPid);
      try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(7);
      }
    }
  }
}
