package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.RelayFixture;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The purge statement against the real database: watermark, age and batch size. */
@TasklaneStack
class PurgerTest {

  @Test
  void deletesOnlyRowsAtOrBelowTheWatermarkAndOlderThanTheRetentionInBatchesOfAtMost1000(
      LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_purger");
    long now = System.currentTimeMillis();
    long old = now - Duration.ofHours(2).toMillis();
    try (Connection c = fx.connect()) {
      insert(c, 2510, old, "old.relayed");
      insert(c, 5, now, "young.relayed");
      insert(c, 10, old, "old.unrelayed");
    }
    long watermark = maxId(fx, "young.relayed"); // everything up to the young rows was relayed
    var config = RelayConfig.fromProperties(fx.properties());
    var purger =
        new Purger(
            new Jdbc(config), "tasklane_outbox", 1000, Duration.ofHours(1), Clock.systemUTC());

    List<Long> survivors = ids(fx, "young.relayed");
    survivors.addAll(ids(fx, "old.unrelayed"));

    Purger.Result result = purger.purge(watermark);

    assertThat(result.rows()).isEqualTo(2510);
    assertThat(result.statements()).isEqualTo(3); // 1000 + 1000 + 510
    assertThat(ids(fx, null)).containsExactlyElementsOf(survivors);
    assertThat(purger.purge(0).rows()).as("no watermark yet: nothing is deleted").isZero();
  }

  private static void insert(Connection c, int n, long createdAt, String handler) throws Exception {
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      for (int i = 0; i < n; i++) {
        String id = java.util.UUID.randomUUID().toString();
        RelayFixture.bindTask(ps, id, id, handler, "{}", createdAt);
        ps.addBatch();
      }
      ps.executeBatch();
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
  }

  private static List<Long> ids(RelayFixture fx, String handler) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (Connection c = fx.connect();
        var rs =
            c.createStatement()
                .executeQuery(
                    "SELECT id FROM tasklane_outbox"
                        + (handler == null ? "" : " WHERE handler = '" + handler + "'")
                        + " ORDER BY id")) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private static long maxId(RelayFixture fx, String handler) throws Exception {
    List<Long> ids = ids(fx, handler);
    return ids.get(ids.size() - 1);
  }
}
