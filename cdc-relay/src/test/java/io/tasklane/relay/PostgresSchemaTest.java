package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.outbox.OutboxSchema;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An outbox table outside {@code public} ({@code app.tasklane_outbox}, {@code
 * tasklane.relay.schema=app}): the publication holds that table only, its rows are relayed and
 * purged, and the relay group has its own slot and leader lock, so a relay of the {@code public}
 * outbox of the same database leads at the same time.
 */
@TasklaneStack
class PostgresSchemaTest {

  @Test
  void relaysAndPurgesAnOutboxInAnotherSchemaWithItsOwnSlotAndLock(LocalStack stack)
      throws Exception {
    var fx = new PgRelayFixture(stack, "relay_pg_schema");
    String appUrl = fx.jdbcUrl + (fx.jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=app";
    fx.execute("CREATE SCHEMA app");
    try (Connection c = app(fx, appUrl)) {
      OutboxSchema.create(c);
    }
    String[] appSettings = {
      "tasklane.relay.schema", "app",
      "tasklane.relay.purge-interval", "1s",
      "tasklane.relay.retention", "0s"
    };
    String appSlot = RelayConfig.fromProperties(fx.properties(appSettings)).slotName();
    assertThat(appSlot).isNotEqualTo(fx.slotName()).endsWith("_app");
    List<String> publicIds;
    List<String> appIds = new ArrayList<>();
    try (Connection c = fx.connect()) {
      publicIds = PostgresRelayTest.insertTasks(c, 5, "public.only");
    }
    try (Connection c = app(fx, appUrl)) {
      appIds.addAll(PostgresRelayTest.insertTasks(c, 10, "app.before"));
    }
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
        Relay appRelay = fx.startRelay(appSettings)) {
      assertThat(appRelay.awaitStreaming(Duration.ofSeconds(90)))
          .as("app relay streaming; %s", appRelay.status())
          .isTrue();
      try (Connection c = app(fx, appUrl)) {
        appIds.addAll(PostgresRelayTest.insertTasks(c, 10, "app.after"));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(appIds));
      assertThat(tasks.firstByKey.keySet()).doesNotContainAnyElementsOf(publicIds);
      assertThat(publishedTables(fx, appSlot)).containsExactly("app.tasklane_outbox");
      await().atMost(Duration.ofSeconds(30)).until(() -> appRows(fx, appUrl) == 0);
      assertThat(fx.count()).as("public outbox untouched by the app relay's purge").isEqualTo(5);

      // The public outbox's relay group: its own lock and slot, so it leads next to the app relay.
      try (Relay publicRelay = fx.startRelay()) {
        assertThat(publicRelay.awaitStreaming(Duration.ofSeconds(90)))
            .as("public relay streaming; %s", publicRelay.status())
            .isTrue();
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(publicIds));
        assertThat(appRelay.state()).isEqualTo(RelayState.STREAMING);
      }
    } finally {
      fx.dropSlot(appSlot);
      fx.dropSlot();
    }
  }

  private static Connection app(PgRelayFixture fx, String appUrl) throws Exception {
    return DriverManager.getConnection(appUrl, fx.pg.username(), fx.pg.password());
  }

  private static long appRows(PgRelayFixture fx, String appUrl) throws Exception {
    try (Connection c = app(fx, appUrl);
        ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM tasklane_outbox")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<String> publishedTables(PgRelayFixture fx, String publication)
      throws Exception {
    try (Connection c = fx.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT schemaname || '.' || tablename FROM pg_publication_tables"
                    + " WHERE pubname = ?")) {
      ps.setString(1, publication);
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      return tables;
    }
  }
}
