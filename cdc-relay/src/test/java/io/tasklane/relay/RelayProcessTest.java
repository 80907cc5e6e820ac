package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskIds;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The relay as a real process, killed with SIGKILL. */
@TasklaneStack
class RelayProcessTest {
  private static final Path DIR = Path.of("target", "processes");

  @Test
  void killedMidStreamAndRestartedRelaysEveryRowAtLeastOnce(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_kill");
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<Throwable> insertError = new AtomicReference<>();
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks())) {
      Path portA = DIR.resolve(fx.database + "-a.port");
      Thread inserter;
      int insertedAtKill;
      try (JavaProcess a = RelayProcesses.start(fx, "kill-a", portA)) {
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> RelayProcesses.state(a, portA).equals("streaming"));
        inserter =
            new Thread(
                () -> {
                  try (Connection c = fx.connect()) {
                    for (int tx = 0; tx < 300; tx++) {
                      ids.addAll(fx.insertTasks(c, 20, "kill.test"));
                    }
                  } catch (Throwable t) {
                    insertError.set(t);
                  }
                });
        inserter.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> tasks.firstByKey.size() >= 500);
        a.kill9();
        insertedAtKill = ids.size();
      }
      inserter.join(120_000);
      assertThat(insertError.get()).isNull();
      long relayedAtKill = tasks.firstByKey.size();
      long t0 = System.nanoTime();
      Path portB = DIR.resolve(fx.database + "-b.port");
      try (JavaProcess b = RelayProcesses.start(fx, "kill-b", portB)) {
        await()
            .atMost(Duration.ofSeconds(120))
            .untilAsserted(
                () -> {
                  RelayProcesses.state(b, portB);
                  assertThat(tasks.firstByKey.keySet()).containsAll(ids);
                });
        double secs = (System.nanoTime() - t0) / 1e9;
        long records = tasks.records.stream().filter(r -> r.key() != null).count();
        System.out.printf(
            "MEASURE kill-9: %d rows inserted at kill, %d relayed at kill; restart relayed all %d"
                + " in %.1f s (JVM start included, %.0f rows/s); %d duplicate records%n",
            insertedAtKill,
            relayedAtKill,
            ids.size(),
            secs,
            (ids.size() - relayedAtKill) / secs,
            records - tasks.firstByKey.size());
        assertThat(ids).hasSize(6000);
      }
    }
  }

  @Test
  void standbyTakesOverWithinTenSecondsWhenTheLeaderIsKilled(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_ha");
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks())) {
      Path portA = DIR.resolve(fx.database + "-a.port");
      Path portB = DIR.resolve(fx.database + "-b.port");
      try (JavaProcess a = RelayProcesses.start(fx, "ha-a", portA);
          JavaProcess b = RelayProcesses.start(fx, "ha-b", portB)) {
        await()
            .atMost(Duration.ofSeconds(90))
            .until(
                () -> {
                  String sa = RelayProcesses.state(a, portA);
                  String sb = RelayProcesses.state(b, portB);
                  return (sa.equals("streaming") && sb.equals("standby"))
                      || (sb.equals("streaming") && sa.equals("standby"));
                });
        boolean aLeads = RelayProcesses.state(portA).equals("streaming");
        JavaProcess leader = aLeads ? a : b;
        Path standbyPort = aLeads ? portB : portA;
        try (Connection c = fx.connect()) {
          List<String> first = fx.insertTasks(c, 10, "ha.before");
          await()
              .atMost(Duration.ofSeconds(30))
              .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(first));
          leader.kill9();
          long t0 = System.nanoTime();
          String probe = TaskIds.keyless(Clock.systemUTC());
          try (PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
            RelayFixture.bindTask(ps, probe, probe, "ha.after", "{}", System.currentTimeMillis());
            ps.executeUpdate();
          }
          await()
              .atMost(Duration.ofSeconds(10))
              .untilAsserted(() -> assertThat(tasks.firstByKey).containsKey(probe));
          System.out.printf(
              "MEASURE failover: standby relayed a row committed at the leader's kill -9 after %d ms%n",
              (System.nanoTime() - t0) / 1_000_000);
          assertThat(RelayProcesses.state(standbyPort)).isEqualTo("streaming");
        }
      }
    }
  }

  @Test
  void theConfigurationLoggedAtStartShowsNoSecret(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_log");
    Path port = DIR.resolve(fx.database + ".port");
    String url =
        fx.jdbcUrl + (fx.jdbcUrl.contains("?") ? "&" : "?") + "trustStorePassword=UrlS3cret";
    try (JavaProcess relay =
        RelayProcesses.start(
            fx,
            "log",
            port,
            "tasklane.relay.jdbc-url",
            url,
            "tasklane.relay.kafka.ssl.truststore.password",
            "TrustS3cret",
            "tasklane.relay.kafka.sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
                + " password=\"JaasS3cret\";",
            "tasklane.relay.debezium.tasklane.test.secret",
            "DbzS3cret")) {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> RelayProcesses.state(relay, port).equals("streaming"));
      String log = java.nio.file.Files.readString(relay.logFile());
      assertThat(log).contains("starting relay RelayConfig[", "trustStorePassword=***");
      assertThat(log).doesNotContain("UrlS3cret", "TrustS3cret", "JaasS3cret", "DbzS3cret");
      var passwordValues =
          java.util.regex.Pattern.compile("(?i)password[\\w.-]*\"?\\s*[=:]\\s*\"?([^\\s\",;}\\]]*)")
              .matcher(log)
              .results()
              .map(m -> m.group(1))
              .toList();
      assertThat(passwordValues).isNotEmpty().doesNotContain(stack.password());
    }
  }
}
