package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.relay.RelayConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PostgreSQL connector settings, purge statement and advisory lock key (no server). */
class PostgresPropsTest {
  private static final RelayConfig MARIA =
      RelayConfig.fromProperties(
          Map.of(
              "tasklane.relay.jdbc-url", "jdbc:mariadb://db:3306/shop",
              "tasklane.relay.username", "relay",
              "tasklane.relay.bootstrap-servers", "kafka:9092"));

  private static final RelayConfig PG =
      RelayConfig.fromProperties(
          Map.of(
              "tasklane.relay.jdbc-url", "jdbc:postgresql://pg:5432/shop",
              "tasklane.relay.username", "relay",
              "tasklane.relay.bootstrap-servers", "kafka:9092"));

  @Test
  void configuresPgoutputWithTheRelayGroupsSlotAndPublicationOfTheOutboxOnly() throws Exception {
    assertThat(new Jdbc(PG).connectorClass()).isEqualTo(DebeziumProps.POSTGRES);
    var p = DebeziumProps.of(PG, DebeziumProps.POSTGRES);
    assertThat(p.getProperty("connector.class"))
        .isEqualTo("io.debezium.connector.postgresql.PostgresConnector");
    assertThat(p.getProperty("plugin.name")).isEqualTo("pgoutput");
    assertThat(p.getProperty("slot.name")).isEqualTo("tasklane_relay_shop");
    assertThat(p.getProperty("publication.name")).isEqualTo("tasklane_relay_shop");
    assertThat(p.getProperty("publication.autocreate.mode")).isEqualTo("filtered");
    assertThat(p.getProperty("table.include.list")).isEqualTo("public.tasklane_outbox");
    assertThat(p.getProperty("database.dbname")).isEqualTo("shop");
    assertThat(p.getProperty("database.port")).isEqualTo("5432");
    assertThat(p.getProperty("snapshot.mode")).isEqualTo("initial");
    // the connector's stream loop and the engine's batch wait both wait poll.interval.ms
    assertThat(p.getProperty("poll.interval.ms")).isEqualTo("5");
    assertThat(p.getProperty("offset.storage.topic")).isEqualTo("tasklane.relay.offsets");
    assertThat(p.stringPropertyNames()).noneMatch(k -> k.startsWith("schema.history"));
  }

  @Test
  void onlyPostgresPollsEvery5MsByDefault() {
    assertThat(DebeziumProps.of(MARIA, DebeziumProps.MARIADB).getProperty("poll.interval.ms"))
        .isEqualTo("20");
    assertThat(DebeziumProps.of(PG, DebeziumProps.POSTGRES).getProperty("poll.interval.ms"))
        .isEqualTo("5");
  }

  @Test
  void debeziumContextHeadersAreOffOnEveryConnector() {
    assertThat(
            DebeziumProps.of(MARIA, DebeziumProps.MARIADB).getProperty("extended.headers.enabled"))
        .isEqualTo("false");
    assertThat(DebeziumProps.of(PG, DebeziumProps.POSTGRES).getProperty("extended.headers.enabled"))
        .isEqualTo("false");
  }

  @Test
  void purgesWithASubqueryOnPostgresAndDeleteLimitOnMariaDb() {
    var pg = new Purger(null, "tasklane_outbox", 500, Duration.ZERO, Clock.systemUTC(), true);
    assertThat(pg.sql())
        .isEqualTo(
            "DELETE FROM tasklane_outbox WHERE id IN (SELECT id FROM tasklane_outbox"
                + " WHERE id <= ? AND created_at < ? ORDER BY id LIMIT 500)");
    var maria = new Purger(null, "tasklane_outbox", 500, Duration.ZERO, Clock.systemUTC());
    assertThat(maria.sql())
        .isEqualTo(
            "DELETE FROM tasklane_outbox WHERE id <= ? AND created_at < ? ORDER BY id LIMIT 500");
  }

  @Test
  void theAdvisoryLockKeyIsStableForALockName() {
    assertThat(AdvisoryLock.keyOf("tasklane_relay_shop"))
        .isEqualTo(AdvisoryLock.keyOf("tasklane_relay_shop"))
        .isNotEqualTo(AdvisoryLock.keyOf("tasklane_relay_shop2"));
    assertThat(LeaderLock.of(PG, new Jdbc(PG))).isInstanceOf(AdvisoryLock.class);
  }
}
