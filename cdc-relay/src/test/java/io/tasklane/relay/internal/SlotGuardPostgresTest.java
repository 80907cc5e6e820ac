package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.relay.RelayConfig;
import io.tasklane.testkit.LocalPostgres;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The slot guard on the real private PostgreSQL: an inactive slot that retains two WAL segments
 * against {@code max_slot_wal_keep_size = 64MB} is read as such, exported, and warned about at a 20
 * % threshold; a missing slot is reported as unknown without a warning.
 */
@TasklaneStack
class SlotGuardPostgresTest {
  private static final long MB = 1024 * 1024;

  @Test
  void readsRetainedWalAndKeepSizeFromTheServerAndWarnsAtTheThreshold(LocalStack stack)
      throws Exception {
    LocalPostgres pg = stack.postgres();
    String db = "slot_guard_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String url = pg.createDatabase(db);
    RelayConfig config =
        RelayConfig.fromProperties(
            Map.of(
                "tasklane.relay.jdbc-url", url,
                "tasklane.relay.username", pg.username(),
                "tasklane.relay.password", pg.password(),
                "tasklane.relay.bootstrap-servers", stack.bootstrapServers()));
    RelayMetrics metrics = new RelayMetrics(Clock.systemUTC(), true);
    var slot =
        new ReplicationSlot(
            new Jdbc(config), config.slotName(), config.qualifiedTable(), Clock.systemUTC());
    var guard = new SlotGuard(slot, metrics, 20);
    try (Connection c = DriverManager.getConnection(url, pg.username(), pg.password());
        Statement st = c.createStatement()) {
      ReplicationSlot.State missing = guard.check();
      assertThat(missing.exists()).isFalse();
      assertThat(metrics.scrape()).contains("tasklane_relay_slot_retained_wal_bytes -1.0");
      assertThat(metrics.slotWarned()).isFalse();

      st.execute("ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'");
      st.execute("SELECT pg_reload_conf()");
      try {
        st.execute(
            "SELECT pg_create_logical_replication_slot('" + config.slotName() + "', 'pgoutput')");
        st.execute("CREATE TABLE filler (id serial PRIMARY KEY, v text)");
        for (int i = 0; i < 2; i++) {
          st.execute("INSERT INTO filler (v) VALUES ('wal')");
          st.execute("SELECT pg_switch_wal()");
        }
        ReplicationSlot.State s = guard.check();
        assertThat(s.exists()).isTrue();
        assertThat(s.active()).isFalse();
        assertThat(s.keepSizeBytes()).isEqualTo(64 * MB);
        assertThat(s.retainedBytes()).isGreaterThanOrEqualTo(16 * MB).isLessThan(64 * MB);
        assertThat(s.walStatus()).isIn("reserved", "extended");
        assertThat(s.usedRatio()).isGreaterThanOrEqualTo(0.2);
        assertThat(s.safeWalSizeBytes()).isPositive();
        assertThat(metrics.slotWarned()).isTrue();
        String text = metrics.scrape();
        assertThat(text)
            .contains("tasklane_relay_slot_wal_keep_size_bytes " + (double) (64 * MB))
            .contains("tasklane_relay_slot_warning 1.0");
        assertThat(new SlotGuard(slot, metrics, 90).check()).isNotNull();
        assertThat(metrics.slotWarned()).as("below a 90 % threshold").isFalse();
      } finally {
        st.execute("ALTER SYSTEM RESET max_slot_wal_keep_size");
        st.execute("SELECT pg_reload_conf()");
        st.execute(
            "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                + " WHERE slot_name = '"
                + config.slotName()
                + "'");
      }
    }
  }
}
