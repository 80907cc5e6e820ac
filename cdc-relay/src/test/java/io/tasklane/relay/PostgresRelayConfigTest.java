package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PostgreSQL settings of the relay: URL, connector, replication slot name. */
class PostgresRelayConfigTest {
  private static Map<String, String> pg(String... extra) {
    Map<String, String> p = new HashMap<>();
    p.put("tasklane.relay.jdbc-url", "jdbc:postgresql://pg.example/Shop_1?sslmode=require");
    p.put("tasklane.relay.username", "relay");
    p.put("tasklane.relay.bootstrap-servers", "kafka:9092");
    for (int i = 0; i + 1 < extra.length; i += 2) {
      p.put(extra[i], extra[i + 1]);
    }
    return p;
  }

  @Test
  void derivesTheSlotNameAndPortFromTheJdbcUrl() {
    RelayConfig c = RelayConfig.fromProperties(pg());
    assertThat(c.postgres()).isTrue();
    assertThat(c.port()).isEqualTo(5432);
    assertThat(c.database()).isEqualTo("Shop_1");
    assertThat(c.slotName()).isEqualTo("tasklane_relay_shop_1");
    assertThat(c.toString()).contains("slotName=tasklane_relay_shop_1");
    RelayConfig explicit =
        RelayConfig.fromProperties(
            pg("tasklane.relay.connector", "postgresql", "tasklane.relay.slot-name", "orders_1"));
    assertThat(explicit.connector()).isEqualTo(RelayConfig.ConnectorKind.POSTGRESQL);
    assertThat(explicit.slotName()).isEqualTo("orders_1");
  }

  @Test
  void aLongDatabaseNameGivesASlotNameOfAtMost63Characters() {
    String db = "d".repeat(80);
    RelayConfig c =
        RelayConfig.fromProperties(pg("tasklane.relay.jdbc-url", "jdbc:postgresql://h:5433/" + db));
    assertThat(c.slotName()).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9_]+");
    assertThat(c.port()).isEqualTo(5433);
  }

  @Test
  void refusesABadSlotName() {
    for (String bad : new String[] {"Orders", "orders-1", "a".repeat(64), "slot name"}) {
      assertThatThrownBy(() -> RelayConfig.fromProperties(pg("tasklane.relay.slot-name", bad)))
          .isInstanceOf(InvalidRelayConfigException.class)
          .hasMessageStartingWith("tasklane.relay.slot-name: '" + bad + "' must match [a-z0-9_]");
    }
  }

  @Test
  void refusesAConnectorThatDoesNotMatchTheUrl() {
    assertThatThrownBy(() -> RelayConfig.fromProperties(pg("tasklane.relay.connector", "mariadb")))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith("tasklane.relay.connector: mariadb does not match the jdbc-url");
    assertThatThrownBy(
            () ->
                RelayConfig.fromProperties(
                    pg(
                        "tasklane.relay.connector",
                        "postgresql",
                        "tasklane.relay.jdbc-url",
                        "jdbc:mariadb://db:3306/shop")))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith("tasklane.relay.connector: postgresql does not match");
  }

  @Test
  void anOutboxOutsidePublicGetsItsOwnSlotAndLockAndAQualifiedTable() {
    RelayConfig pub = RelayConfig.fromProperties(pg());
    assertThat(pub.schema()).isEqualTo("public");
    assertThat(pub.qualifiedTable()).isEqualTo("public.tasklane_outbox");
    RelayConfig app = RelayConfig.fromProperties(pg("tasklane.relay.schema", "app"));
    assertThat(app.qualifiedTable()).isEqualTo("app.tasklane_outbox");
    assertThat(app.slotName()).isEqualTo("tasklane_relay_shop_1_app");
    assertThat(app.name()).isEqualTo("tasklane_relay_Shop_1_app").isNotEqualTo(pub.name());
    assertThat(app.lockName()).isEqualTo("tasklane_relay_Shop_1_app").isNotEqualTo(pub.lockName());
    assertThat(app.toString()).contains("table=app.tasklane_outbox");
  }

  @Test
  void refusesABadSchemaAndASchemaOnMariaDb() {
    for (String bad : new String[] {"App", "app-1", "a".repeat(64), "1app"}) {
      assertThatThrownBy(() -> RelayConfig.fromProperties(pg("tasklane.relay.schema", bad)))
          .isInstanceOf(InvalidRelayConfigException.class)
          .hasMessageStartingWith("tasklane.relay.schema: '" + bad + "' must match [a-z_]");
    }
    assertThatThrownBy(
            () ->
                RelayConfig.fromProperties(
                    pg(
                        "tasklane.relay.schema",
                        "app",
                        "tasklane.relay.jdbc-url",
                        "jdbc:mariadb://db:3306/shop")))
        .isInstanceOf(InvalidRelayConfigException.class)
        .hasMessageStartingWith("tasklane.relay.schema: is for PostgreSQL only");
  }

  @Test
  void pollIntervalDefaultsTo5MsOnPostgresAndAnExplicitOneWins() {
    assertThat(RelayConfig.fromProperties(pg()).pollInterval())
        .isEqualTo(RelayConfig.DEFAULT_POSTGRES_POLL_INTERVAL)
        .isEqualTo(Duration.ofMillis(5));
    assertThat(
            RelayConfig.fromProperties(pg("tasklane.relay.jdbc-url", "jdbc:mariadb://db:3306/shop"))
                .pollInterval())
        .isEqualTo(RelayConfig.DEFAULT_POLL_INTERVAL)
        .isEqualTo(Duration.ofMillis(20));
    assertThat(
            RelayConfig.fromProperties(pg("tasklane.relay.poll-interval", "20ms")).pollInterval())
        .isEqualTo(Duration.ofMillis(20));
  }

  @Test
  void slotWarnPercentDefaultsTo80AndIsRefusedOutside1To100() {
    assertThat(RelayConfig.fromProperties(pg()).slotWarnPercent()).isEqualTo(80);
    assertThat(
            RelayConfig.fromProperties(pg("tasklane.relay.slot-warn-percent", "95"))
                .slotWarnPercent())
        .isEqualTo(95);
    for (String bad : new String[] {"101", "-1"}) {
      assertThatThrownBy(
              () -> RelayConfig.fromProperties(pg("tasklane.relay.slot-warn-percent", bad)))
          .isInstanceOf(InvalidRelayConfigException.class)
          .hasMessageStartingWith(
              "tasklane.relay.slot-warn-percent: " + bad + " is outside 1 to 100");
    }
  }
}
