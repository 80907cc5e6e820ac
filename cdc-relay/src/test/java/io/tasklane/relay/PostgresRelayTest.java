package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A relay on the private PostgreSQL (pgoutput, its own slot and publication) relays into {@code
 * <ns>.tasks} with the same envelope as on MariaDB: snapshot, streaming, cancel, purge, restart.
 */
@TasklaneStack
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresRelayTest {
  static PgRelayFixture fx;
  static Relay relay;
  static TopicReader tasks;
  static List<String> preExisting;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new PgRelayFixture(stack, "relay_pg");
    try (Connection c = fx.connect()) {
      preExisting = insertTasks(c, 5, "pre.existing");
    }
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    relay = startRelay();
  }

  static Relay startRelay() throws InterruptedException {
    Relay r =
        fx.startRelay("tasklane.relay.purge-interval", "1s", "tasklane.relay.retention", "0s");
    assertThat(r.awaitStreaming(Duration.ofSeconds(90)))
        .as("relay streaming; state %s", r.status())
        .isTrue();
    return r;
  }

  @AfterAll
  static void stop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    if (tasks != null) {
      tasks.close();
    }
    if (fx != null) {
      fx.dropSlot();
    }
  }

  @Test
  @Order(1)
  void firstStartRelaysRowsAlreadyInTheTable() {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(preExisting));
    TaskEnvelope t =
        (TaskEnvelope) WireCodec.decodeTaskRecord(tasks.firstByKey.get(preExisting.get(0)).value());
    assertThat(t.id()).isEqualTo(preExisting.get(0));
    assertThat(t.handler()).isEqualTo("pre.existing");
    assertThat(t.source().table()).isEqualTo("tasklane_outbox");
    assertThat(t.orderingKey()).isNull();
    assertThat(t.maxAttempts()).isEqualTo(25);
    assertThat(t.payload().get("n").asInt()).isZero();
  }

  @Test
  @Order(2)
  void relaysTasksFromTheOutboxLibraryAndCancelRows() throws Exception {
    String task;
    try (Connection c = fx.connect()) {
      c.setAutoCommit(false);
      task =
          TaskOutbox.builder()
              .jdbc(c)
              .enqueue(
                  TaskRequest.to("order.ship")
                      .payload(Map.of("order", 42))
                      .orderingKey("order-42")
                      .header("tenant", "eu"));
      c.commit();
    }
    String cancel = TaskIds.keyless(Clock.systemUTC());
    try (Connection c = fx.connect();
        PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      RelayFixture.bindTask(ps, cancel, cancel, null, "\"customer changed mind\"", 0);
      ps.setString(3, "CANCEL");
      ps.setLong(13, System.currentTimeMillis());
      ps.setInt(8, 0);
      ps.setLong(9, 0);
      ps.executeUpdate();
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(tasks.firstByKey).containsKeys("order-42", cancel));
    TaskEnvelope t =
        (TaskEnvelope) WireCodec.decodeTaskRecord(tasks.firstByKey.get("order-42").value());
    assertThat(t.id()).isEqualTo(task);
    assertThat(t.orderingKey()).isEqualTo("order-42");
    assertThat(t.payload().get("order").asInt()).isEqualTo(42);
    assertThat(t.headers()).containsEntry("tenant", "eu");
    CancelCommand cc =
        (CancelCommand) WireCodec.decodeTaskRecord(tasks.firstByKey.get(cancel).value());
    assertThat(cc.reason()).isEqualTo("customer changed mind");
  }

  @Test
  @Order(3)
  void relaysTwentyThousandRowsAndPurgesThem() throws Exception {
    Set<String> committed = new HashSet<>();
    long t0 = System.nanoTime();
    long insertStartMs = System.currentTimeMillis();
    try (Connection c = fx.connect()) {
      for (int tx = 0; tx < 200; tx++) {
        committed.addAll(insertTasks(c, 100, "bulk.ok"));
      }
    }
    double insertSeconds = (System.nanoTime() - t0) / 1e9;
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(committed));
    long lastCreate =
        committed.stream().mapToLong(id -> tasks.firstByKey.get(id).timestamp()).max().orElse(0);
    System.out.printf(
        "MEASURE postgres relay: %d rows in tx of 100: insert %.0f rows/s; relay %.0f rows/s"
            + " (first insert -> last record produced)%n",
        committed.size(),
        committed.size() / insertSeconds,
        committed.size() / ((lastCreate - insertStartMs) / 1e3));
    long bulk = tasks.records.stream().filter(r -> committed.contains(r.key())).count();
    assertThat(bulk).isEqualTo(committed.size());
    await().atMost(Duration.ofSeconds(60)).until(() -> fx.count() == 0);
    assertThat(relay.status().purged()).isGreaterThanOrEqualTo(committed.size());
  }

  @Test
  @Order(4)
  void aRestartedRelayResumesWithoutLoss() throws Exception {
    relay.close();
    List<String> whileAway;
    try (Connection c = fx.connect()) {
      whileAway = insertTasks(c, 50, "while.away");
    }
    relay = startRelay();
    List<String> after;
    try (Connection c = fx.connect()) {
      after = insertTasks(c, 50, "after.restart");
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              assertThat(tasks.firstByKey.keySet()).containsAll(whileAway);
              assertThat(tasks.firstByKey.keySet()).containsAll(after);
            });
    // No snapshot on restart: the rows before it (pre-existing, purged anyway) are not re-read.
    long preCopies = tasks.records.stream().filter(r -> preExisting.contains(r.key())).count();
    assertThat(preCopies).isEqualTo(preExisting.size());
  }

  @Test
  @Order(5)
  void aStandbyTakesOverTheAdvisoryLockWhenTheLeaderStops() throws Exception {
    Relay standby = fx.startRelay();
    try {
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(standby.status().state()).isEqualTo(RelayState.STANDBY));
      relay.close();
      relay = standby;
      assertThat(standby.awaitStreaming(Duration.ofSeconds(60)))
          .as("standby streaming; state %s", standby.status())
          .isTrue();
      List<String> ids;
      try (Connection c = fx.connect()) {
        ids = insertTasks(c, 20, "after.failover");
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(ids));
    } finally {
      if (relay != standby) {
        standby.close();
      }
    }
  }

  @Test
  @Order(6)
  void exportsTheSlotGuardMetricsTheAlertRulesUse() throws Exception {
    String rules =
        java.nio.file.Files.readString(
            java.nio.file.Path.of("")
                .toAbsolutePath()
                .getParent()
                .resolve("compose/prometheus/alerts.yml"));
    Set<String> slotMetrics = new HashSet<>();
    var m = java.util.regex.Pattern.compile("\\btasklane_relay_slot_[a-z_]+").matcher(rules);
    while (m.find()) {
      slotMetrics.add(m.group());
    }
    assertThat(slotMetrics)
        .contains(
            "tasklane_relay_slot_wal_keep_size_used_ratio", "tasklane_relay_slot_recoveries_total");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Map<String, Double> exported = samples(relay.metricsText());
              assertThat(exported.keySet()).containsAll(slotMetrics);
              // A real reading of pg_replication_slots: retained WAL known; the testkit server
              // keeps WAL for slots without limit (max_slot_wal_keep_size = -1).
              assertThat(exported.get("tasklane_relay_slot_retained_wal_bytes"))
                  .isGreaterThanOrEqualTo(0);
              assertThat(exported.get("tasklane_relay_slot_wal_keep_size_bytes")).isEqualTo(-1);
              assertThat(exported.get("tasklane_relay_slot_wal_keep_size_used_ratio"))
                  .isEqualTo(-1);
              assertThat(exported.get("tasklane_relay_slot_warning")).isZero();
            });
  }

  /** Name → value of every unlabelled sample of a Prometheus text exposition. */
  static Map<String, Double> samples(String text) {
    Map<String, Double> out = new java.util.HashMap<>();
    for (String line : text.split("\n")) {
      String[] parts = line.split(" ");
      if (!line.startsWith("#") && parts.length == 2 && !parts[0].contains("{")) {
        out.put(parts[0], Double.parseDouble(parts[1]));
      }
    }
    return out;
  }

  static List<String> insertTasks(Connection c, int n, String handler) throws Exception {
    List<String> ids = new ArrayList<>(n);
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      for (int i = 0; i < n; i++) {
        String id = TaskIds.keyless(Clock.systemUTC());
        ids.add(id);
        RelayFixture.bindTask(ps, id, id, handler, "{\"n\":" + i + "}", System.currentTimeMillis());
        ps.addBatch();
      }
      ps.executeBatch();
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
    return ids;
  }
}
