package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayConfigTest {
  private static Map<String, String> minimal() {
    Map<String, String> p = new HashMap<>();
    p.put("tasklane.relay.jdbc-url", "jdbc:mariadb://db.example:3307/shop?useSsl=true");
    p.put("tasklane.relay.username", "relay");
    p.put("tasklane.relay.bootstrap-servers", "kafka:9092");
    return p;
  }

  @Test
  void appliesDefaultsAndDerivesNamesFromTheJdbcUrl() {
    RelayConfig c = RelayConfig.fromProperties(minimal());
    assertThat(c.database()).isEqualTo("shop");
    assertThat(c.host()).isEqualTo("db.example");
    assertThat(c.port()).isEqualTo(3307);
    assertThat(c.name()).isEqualTo("tasklane_relay_shop");
    assertThat(c.lockName()).isEqualTo("tasklane_relay_shop");
    assertThat(c.table()).isEqualTo("tasklane_outbox");
    assertThat(c.retention()).isEqualTo(Duration.ofHours(1));
    assertThat(c.purgeBatchSize()).isEqualTo(1000);
    assertThat(c.pollInterval()).isEqualTo(RelayConfig.DEFAULT_POLL_INTERVAL);
    assertThat(c.connector()).isEqualTo(RelayConfig.ConnectorKind.AUTO);
    assertThat(c.topics().tasks()).isEqualTo("tasklane.tasks");
    assertThat(c.serverId()).isPositive();
  }

  @Test
  void refusesBadValuesNamingTheSettingAndTheLimit() {
    var p = minimal();
    p.put("tasklane.relay.purge-batch-size", "5000");
    assertThatThrownBy(() -> RelayConfig.fromProperties(p))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessage("tasklane.relay.purge-batch-size: 5000 is outside 1 to 1000");
    var q = minimal();
    q.put("tasklane.relay.jdbc-url", "jdbc:sqlserver://x/y");
    assertThatThrownBy(() -> RelayConfig.fromProperties(q))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith("tasklane.relay.jdbc-url:");
    var r = minimal();
    r.put("tasklane.relay.retension-ms", "5");
    assertThatThrownBy(() -> RelayConfig.fromProperties(r))
        .hasMessageStartingWith("tasklane.relay.retension-ms: unknown setting");
    var s = minimal();
    s.remove("tasklane.relay.username");
    assertThatThrownBy(() -> RelayConfig.fromProperties(s))
        .hasMessage("tasklane.relay.username: is required");
  }

  @Test
  void layersFileThenSystemPropertiesThenEnvironmentWithKafkaPassThrough(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("relay.properties");
    Files.writeString(
        file,
        "tasklane.relay.jdbc-url=jdbc:mariadb://h/db1\n"
            + "tasklane.relay.username=fromfile\n"
            + "tasklane.relay.bootstrap-servers=k:1\n"
            + "tasklane.relay.retention=1000ms\n"
            + "tasklane.relay.lock-wait=5s\n"
            + "tasklane.relay.kafka.security.protocol=SSL\n");
    Properties sys = new Properties();
    sys.setProperty("tasklane.relay.username", "fromsys");
    sys.setProperty("tasklane.relay.retention", "2s");
    sys.setProperty("unrelated.key", "x");
    Map<String, String> env =
        Map.of(
            "TASKLANE_RELAY_RETENTION", "3s",
            "TASKLANE_RELAY_KAFKA_SASL_MECHANISM", "PLAIN",
            "TASKLANE_RELAY_DEBEZIUM_SNAPSHOT_FETCH_SIZE", "500",
            "PATH", "/bin");

    RelayConfig c = RelayConfigLoader.load(file, sys, env);

    assertThat(c.username()).isEqualTo("fromsys");
    assertThat(c.retention()).isEqualTo(Duration.ofMillis(3000));
    assertThat(c.lockWait()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.heartbeatInterval()).isEqualTo(RelayConfig.DEFAULT_HEARTBEAT_INTERVAL);
    assertThat(c.kafka())
        .containsEntry("security.protocol", "SSL")
        .containsEntry("sasl.mechanism", "PLAIN");
    assertThat(c.debezium()).containsEntry("snapshot.fetch.size", "500");
    assertThat(c.toString()).doesNotContain("password=");
  }

  @Test
  void refusesAConfigFileKeyWithoutThePrefixNamingTheKeyAndThePrefix(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("relay.properties");
    Files.writeString(
        file,
        "tasklane.relay.username=relay\n"
            + "tasklane.relay.bootstrap-servers=k:1\n"
            + "jdbc-url=jdbc:mariadb://h/db1\n");

    assertThatThrownBy(() -> RelayConfigLoader.load(file, new Properties(), Map.of()))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith("jdbc-url: not a relay setting in " + file)
        .hasMessageContaining("keys there start with 'tasklane.relay.'")
        .hasMessageContaining("did you mean 'tasklane.relay.jdbc-url'?");

    Files.writeString(file, "kafka.security.protocol=SSL\n");
    assertThatThrownBy(() -> RelayConfigLoader.load(file, new Properties(), Map.of()))
        .hasMessageStartingWith("kafka.security.protocol: not a relay setting")
        .hasMessageContaining("did you mean 'tasklane.relay.kafka.security.protocol'?");
  }

  @Test
  void acceptsPrefixedSettingsAndKafkaPassThroughInTheConfigFile(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("relay.properties");
    Files.writeString(
        file,
        "tasklane.relay.jdbc-url=jdbc:mariadb://h/db1\n"
            + "tasklane.relay.username=relay\n"
            + "tasklane.relay.bootstrap-servers=k:1\n"
            + "tasklane.relay.kafka.security.protocol=SASL_SSL\n"
            + "tasklane.relay.debezium.snapshot.fetch.size=500\n");

    RelayConfig c = RelayConfigLoader.load(file, new Properties(), Map.of());

    assertThat(c.database()).isEqualTo("db1");
    assertThat(c.kafka()).containsEntry("security.protocol", "SASL_SSL");
    assertThat(c.debezium()).containsEntry("snapshot.fetch.size", "500");
  }

  @Test
  void theLoggedFormShowsNoSecret() {
    var p = minimal();
    p.put("tasklane.relay.jdbc-url", "jdbc:mariadb://db:3306/shop?user=relay&password=UrlSecret1");
    p.put("tasklane.relay.password", "PlainSecret2");
    p.put(
        "tasklane.relay.kafka.sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"r\""
            + " password=\"JaasSecret3\";");
    p.put("tasklane.relay.kafka.ssl.truststore.password", "TrustSecret4");
    p.put("tasklane.relay.kafka.ssl.keystore.key", "KeySecret5");
    p.put("tasklane.relay.kafka.sasl.oauthbearer.client.credentials.client.secret", "Oauth6");
    p.put("tasklane.relay.kafka.key.serializer", "StringSerializer");
    p.put("tasklane.relay.debezium.database.password", "DbzSecret7");

    String logged = RelayConfig.fromProperties(p).toString();

    assertThat(logged)
        .doesNotContain(
            "UrlSecret1",
            "PlainSecret2",
            "JaasSecret3",
            "TrustSecret4",
            "KeySecret5",
            "Oauth6",
            "DbzSecret7")
        .contains("password=***", "ssl.truststore.password=***", "key.serializer=StringSerializer")
        .contains("jdbc:mariadb://db:3306/shop?user=relay&password=***");
  }

  @Test
  void httpListensOnLoopbackUnlessConfigured() {
    assertThat(RelayConfig.fromProperties(minimal()).httpHost()).isEqualTo("127.0.0.1");
    var p = minimal();
    p.put("tasklane.relay.http-host", "0.0.0.0");
    assertThat(RelayConfig.fromProperties(p).httpHost()).isEqualTo("0.0.0.0");
    assertThat(RelayConfigLoader.envToProperty("TASKLANE_RELAY_HTTP_HOST"))
        .isEqualTo("tasklane.relay.http-host");
    var q = minimal();
    q.put("tasklane.relay.http-host", "a host/with junk");
    assertThatThrownBy(() -> RelayConfig.fromProperties(q))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith("tasklane.relay.http-host: 'a host/with junk' must be a host name");
  }

  @Test
  void readsDurationsWithTheirUnitAndRefusesABareNumberNamingTheForms() {
    var p = minimal();
    p.put("tasklane.relay.retention", "7d");
    p.put("tasklane.relay.poll-interval", "PT0.05S");
    p.put("tasklane.relay.purge-interval", "0s");
    RelayConfig c = RelayConfig.fromProperties(p);
    assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(50));
    assertThat(c.purgeInterval()).isZero();

    var q = minimal();
    q.put("tasklane.relay.retention", "3600000");
    assertThatThrownBy(() -> RelayConfig.fromProperties(q))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessage(
            "tasklane.relay.retention: '3600000' is not a duration: write a number and a unit"
                + " (500ms, 30s, 5m, 1h, 7d) or ISO-8601 (PT30S)");
    var r = minimal();
    r.put("tasklane.relay.lock-wait", "500ms");
    assertThatThrownBy(() -> RelayConfig.fromProperties(r))
        .hasMessage("tasklane.relay.lock-wait: 500ms is outside 1s to 1m");
  }

  @Test
  void refusesTheMillisecondKeysNamingTheirDurationSuccessor() {
    var p = minimal();
    p.put("tasklane.relay.retention-ms", "3600000");
    assertThatThrownBy(() -> RelayConfig.fromProperties(p))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith(
            "tasklane.relay.retention-ms: renamed to 'tasklane.relay.retention', a duration");
    assertThatThrownBy(
            () ->
                RelayConfigLoader.load(
                    null, new Properties(), Map.of("TASKLANE_RELAY_POLL_INTERVAL_MS", "20")))
        .hasMessageStartingWith(
            "tasklane.relay.poll-interval-ms: renamed to 'tasklane.relay.poll-interval'");
  }

  @Test
  void refusesUnknownKeysFromEverySourceNamingTheNearestKnownOne(@TempDir Path dir)
      throws Exception {
    var p = minimal();
    p.put("tasklane.relay.bootstrap-server", "k:1");
    assertThatThrownBy(() -> RelayConfig.fromProperties(p))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith(
            "tasklane.relay.bootstrap-server: unknown setting; did you mean"
                + " 'tasklane.relay.bootstrap-servers'?");
    Properties sys = new Properties();
    sys.setProperty("tasklane.relay.http-prot", "1");
    assertThatThrownBy(() -> RelayConfigLoader.load(null, sys, Map.of()))
        .hasMessageStartingWith("tasklane.relay.http-prot: unknown setting");
    assertThatThrownBy(
            () ->
                RelayConfigLoader.load(null, new Properties(), Map.of("TASKLANE_RELAY_TABEL", "t")))
        .hasMessageStartingWith(
            "tasklane.relay.tabel: unknown setting; did you mean 'tasklane.relay.table'?");
  }

  @Test
  void refusesAnUnknownConnectorNamingTheAllowedValues() {
    var p = minimal();
    p.put("tasklane.relay.connector", "postgres");
    assertThatThrownBy(() -> RelayConfig.fromProperties(p))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessage(
            "tasklane.relay.connector: 'postgres' must be one of auto, mariadb, mysql, postgresql");
    p.put("tasklane.relay.connector", "MariaDB");
    assertThat(RelayConfig.fromProperties(p).connector())
        .isEqualTo(RelayConfig.ConnectorKind.MARIADB);
  }

  @Test
  void theBuilderAppliesTheSameDefaultsAndChecks() {
    RelayConfig built =
        RelayConfig.builder()
            .jdbcUrl("jdbc:mariadb://db.example:3307/shop?useSsl=true")
            .username("relay")
            .bootstrapServers("kafka:9092")
            .build();
    assertThat(built).isEqualTo(RelayConfig.fromProperties(minimal()));
    assertThatThrownBy(
            () ->
                RelayConfig.builder()
                    .jdbcUrl("jdbc:mariadb://h/db")
                    .username("u")
                    .bootstrapServers("k:1")
                    .purgeBatchSize(5000)
                    .build())
        .hasMessage("tasklane.relay.purge-batch-size: 5000 is outside 1 to 1000");
  }
}
