package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One in-process relay on its own database: streaming, mapping, rollback, DLT, updates. */
@TasklaneStack
class RelayStreamingTest {
  static RelayFixture fx;
  static Relay relay;
  static TopicReader tasks;
  static TopicReader dlt;
  static List<String> preExisting;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new RelayFixture(stack, "relay_stream");
    try (Connection c = fx.connect()) {
      preExisting = fx.insertTasks(c, 5, "pre.existing");
    }
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    dlt = new TopicReader(stack.bootstrapServers(), fx.topics.relayDlt());
    relay = fx.startRelay(Clock.systemUTC());
    assertThat(relay.awaitStreaming(Duration.ofSeconds(90)))
        .as("relay streaming; state %s", relay.status())
        .isTrue();
  }

  @AfterAll
  static void stop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    if (tasks != null) {
      tasks.close();
    }
    if (dlt != null) {
      dlt.close();
    }
  }

  @Test
  void firstStartRelaysRowsAlreadyInTheTable() {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(preExisting));
    TaskEnvelope t =
        (TaskEnvelope) WireCodec.decodeTaskRecord(tasks.firstByKey.get(preExisting.get(0)).value());
    assertThat(t.handler()).isEqualTo("pre.existing");
    assertThat(t.source().table()).isEqualTo("tasklane_outbox");
    assertThat(t.orderingKey()).isNull();
  }

  @Test
  void relaysTenThousandCommittedRowsAndNoneFromARolledBackTransaction() throws Exception {
    List<String> committed = new ArrayList<>();
    List<String> rolledBack = new ArrayList<>();
    long t0 = System.nanoTime();
    try (Connection c = fx.connect()) {
      for (int tx = 0; tx < 100; tx++) {
        committed.addAll(fx.insertTasks(c, 100, "bulk.ok"));
        if (tx % 20 == 0) {
          rolledBack.addAll(insertAndRollback(c, 50));
        }
      }
    }
    long insertNanos = System.nanoTime() - t0;
    long insertStartMs = System.currentTimeMillis() - insertNanos / 1_000_000;
    await()
        .atMost(Duration.ofSeconds(120))
        .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(committed));
    long lastCreate =
        committed.stream()
            .mapToLong(id -> tasks.firstByKey.get(id).timestamp())
            .max()
            .orElseThrow();
    long firstCreate =
        committed.stream()
            .mapToLong(id -> tasks.firstByKey.get(id).timestamp())
            .min()
            .orElseThrow();
    double insertRate = committed.size() / (insertNanos / 1e9);
    double relayRate = committed.size() / ((lastCreate - insertStartMs) / 1e3);
    double drainRate = committed.size() / (Math.max(1, lastCreate - firstCreate) / 1e3);
    System.out.printf(
        "MEASURE relay: %d rows in tx of 100: insert %.0f rows/s; relay %.0f rows/s (first insert"
            + " -> last record acked), %.0f rows/s (first -> last record produced)%n",
        committed.size(), insertRate, relayRate, drainRate);
    // Everything committed so far has been relayed; a rolled-back row would have been in the
    // binlog stream before the last committed one.
    assertThat(tasks.firstByKey.keySet()).doesNotContainAnyElementsOf(rolledBack);
    long bulkRecords =
        tasks.records.stream()
            .filter(r -> committed.contains(r.key()) || rolledBack.contains(r.key()))
            .count();
    assertThat(bulkRecords).isEqualTo(committed.size());
  }

  @Test
  void measuresCommitToRecordLatency() throws Exception {
    Map<String, Long> committedAt = new ConcurrentHashMap<>();
    try (Connection c = fx.connect();
        PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      c.setAutoCommit(true);
      for (int i = 0; i < 300; i++) {
        String id = TaskIds.keyless(Clock.systemUTC());
        RelayFixture.bindTask(ps, id, id, "latency.probe", "{}", System.currentTimeMillis());
        ps.executeUpdate();
        committedAt.put(id, System.currentTimeMillis());
      }
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> assertThat(tasks.firstByKey.keySet()).containsAll(committedAt.keySet()));
    Histogram h = new Histogram(60_000, 3);
    committedAt.forEach(
        (id, at) -> h.recordValue(Math.max(0, tasks.firstByKey.get(id).timestamp() - at)));
    System.out.printf(
        "MEASURE latency commit->record (producer timestamp), poll.interval.ms=10, %d sequential commits: p50=%d ms p99=%d ms max=%d ms%n",
        h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue());
    assertThat(h.getTotalCount()).isEqualTo(300);
  }

  @Test
  void mapsCancelRowsAndOrderingKeys() throws Exception {
    String task = TaskIds.keyless(Clock.systemUTC());
    String cancel = TaskIds.keyless(Clock.systemUTC());
    try (Connection c = fx.connect();
        PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      RelayFixture.bindTask(
          ps, task, "order-42", "order.ship", "{\"order\":42}", System.currentTimeMillis());
      ps.executeUpdate();
      ps.setString(1, cancel);
      ps.setString(2, cancel);
      ps.setString(3, "CANCEL");
      ps.setString(4, null);
      ps.setString(6, "\"customer changed mind\"");
      ps.setLong(7, 0);
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
    CancelCommand cc =
        (CancelCommand) WireCodec.decodeTaskRecord(tasks.firstByKey.get(cancel).value());
    assertThat(cc.reason()).isEqualTo("customer changed mind");
  }

  @Test
  void malformedRowsGoToTheRelayDltAndTheRelayKeepsGoing() throws Exception {
    Map<String, String> expectedReason = new HashMap<>();
    String after;
    try (Connection c = fx.connect();
        PreparedStatement ps =
            c.prepareStatement(RelayFixture.INSERT, PreparedStatement.RETURN_GENERATED_KEYS)) {
      long now = System.currentTimeMillis();
      expectedReason.put(
          insert(ps, TaskIds.keyless(Clock.systemUTC()), "TASK", "bad.json", "{broken", now),
          "payload");
      expectedReason.put(
          insert(ps, TaskIds.keyless(Clock.systemUTC()), "FROB", "x.y", "{}", now), "kind");
      expectedReason.put(
          insert(ps, TaskIds.keyless(Clock.systemUTC()), "TASK", null, "{}", now), "handler");
      expectedReason.put(
          insert(
              ps,
              TaskIds.keyless(Clock.systemUTC()),
              "TASK",
              "big.one",
              "\"" + "x".repeat(300_000) + "\"",
              now),
          "payload");
      expectedReason.put(insert(ps, "not-a-uuid", "TASK", "bad.id", "{}", now), "id");
      after = TaskIds.keyless(Clock.systemUTC());
      insert(ps, after, "TASK", "after.bad", "{}", now);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(tasks.firstByKey).containsKey(after);
              assertThat(dlt.firstByKey.keySet()).containsAll(expectedReason.keySet());
            });
    for (var e : expectedReason.entrySet()) {
      ConsumerRecord<String, byte[]> r = dlt.firstByKey.get(e.getKey());
      String reason = new String(r.headers().lastHeader("tasklane.relay.reason").value());
      assertThat(reason).as("row %s", e.getKey()).startsWith(e.getValue() + ":");
      assertThat(new String(r.headers().lastHeader("tasklane.relay.row-id").value()))
          .isEqualTo(e.getKey());
      var body = WireCodec.readTree(new String(r.value()));
      assertThat(body.path("row").path("id").asText()).isEqualTo(e.getKey());
      assertThat(body.path("reason").asText()).isEqualTo(reason);
    }
    // the counter moves once the relay has seen its dead letters acknowledged, which may be a
    // little after a consumer reads them
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(relay.status().deadLettered()).isGreaterThanOrEqualTo(5));
  }

  @Test
  void updatesAndDeletesAreIgnoredAndCounted() throws Exception {
    long ignoredBefore = relay.status().ignored();
    List<String> ids;
    try (Connection c = fx.connect()) {
      ids = fx.insertTasks(c, 3, "to.update");
      try (PreparedStatement ps =
          c.prepareStatement("UPDATE tasklane_outbox SET handler='changed.x' WHERE task_id=?")) {
        ps.setString(1, ids.get(0));
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM tasklane_outbox WHERE task_id=?")) {
        ps.setString(1, ids.get(1));
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> assertThat(relay.status().ignored()).isGreaterThanOrEqualTo(ignoredBefore + 2));
    assertThat(tasks.records.stream().filter(r -> ids.contains(r.key())).count()).isEqualTo(3);
    assertThat(relay.metricsText()).contains("tasklane_relay_ignored_total{op=\"update\"}");
  }

  @Test
  void healthAndMetricsAreServedOverHttp() throws Exception {
    var client = java.net.http.HttpClient.newHttpClient();
    var health =
        client.send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + relay.httpPort() + "/health"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(WireCodec.readTree(health.body()).path("state").asText()).isEqualTo("streaming");
    var metrics =
        client.send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + relay.httpPort() + "/metrics"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body())
        .contains(
            "tasklane_relay_records_total",
            "tasklane_relay_binlog_lag_ms",
            "tasklane_relay_offset_age_ms",
            "tasklane_relay_purge_deleted_total",
            "tasklane_relay_binlog_files_before_offset");
  }

  private static String insert(
      PreparedStatement ps, String id, String kind, String handler, String payload, long now)
      throws Exception {
    RelayFixture.bindTask(ps, id, id, handler, payload, now);
    ps.setString(3, kind);
    ps.executeUpdate();
    try (var keys = ps.getGeneratedKeys()) {
      keys.next();
      return String.valueOf(keys.getLong(1));
    }
  }

  private static List<String> insertAndRollback(Connection c, int n) throws Exception {
    List<String> ids = new ArrayList<>();
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      for (int i = 0; i < n; i++) {
        String id = TaskIds.keyless(Clock.systemUTC());
        ids.add(id);
        RelayFixture.bindTask(ps, id, id, "rolled.back", "{}", System.currentTimeMillis());
        ps.addBatch();
      }
      ps.executeBatch();
      c.rollback();
    } finally {
      c.setAutoCommit(true);
    }
    return ids;
  }

  static Set<String> keys(List<ConsumerRecord<String, byte[]>> records) {
    Set<String> s = ConcurrentHashMap.newKeySet();
    records.forEach(r -> s.add(r.key()));
    return s;
  }
}
