package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskState;
import io.tasklane.core.UniqueRelease;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The relay frees the unique windows of ended tasks: a release from {@code <ns>.unique-releases}
 * deletes its window's row of {@code tasklane_unique} only while the row belongs to the task that
 * ended; a record that is not a release is skipped and counted, and the releases after it still
 * apply (real MariaDB and broker).
 */
@TasklaneStack
class RelayUniqueReleaseTest {
  private static final String HANDLER = "order.remind";

  @Test
  void aReleaseDeletesTheWindowOfItsTaskAndNoOther(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_unique");
    long ahead = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
    try (Connection c = fx.connect()) {
      window(c, "order-1", "task-1", ahead);
      window(c, "order-2", "task-2-new", ahead); // a later task took this key's window
      window(c, "order-3", "task-3", ahead);
    }
    try (Relay relay = fx.startRelay(Clock.systemUTC());
        KafkaProducer<String, byte[]> producer =
            new KafkaProducer<>(
                Map.of("bootstrap.servers", stack.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
      assertThat(relay.awaitStreaming(Duration.ofSeconds(90))).isTrue();
      String topic = fx.topics.uniqueReleases();
      send(producer, topic, "task-1", release("task-1", "order-1", TaskState.SUCCEEDED));
      send(producer, topic, "task-2-old", release("task-2-old", "order-2", TaskState.DEAD));
      send(producer, topic, "junk", "not a release".getBytes());
      send(producer, topic, "task-3", release("task-3", "order-3", TaskState.CANCELLED));
      producer.flush();

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(() -> assertThat(windows(fx)).containsExactly("order-2=task-2-new"));
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                String metrics = relay.metricsText();
                assertThat(counter(metrics, "tasklane_relay_unique_released_total")).isEqualTo(2);
                assertThat(counter(metrics, "tasklane_relay_unique_release_invalid_total"))
                    .isEqualTo(1);
              });
    }
  }

  private static byte[] release(String taskId, String key, TaskState state) {
    return WireCodec.encode(
        UniqueRelease.of(taskId, HANDLER, key, state, System.currentTimeMillis()));
  }

  private static void send(
      KafkaProducer<String, byte[]> producer, String topic, String key, byte[] value)
      throws Exception {
    producer.send(new ProducerRecord<>(topic, key, value)).get();
  }

  private static void window(Connection c, String key, String taskId, long expiresAt)
      throws Exception {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tasklane_unique (key_id, handler, unique_key, task_id, expires_at)"
                + " VALUES (?,?,?,?,?)")) {
      ps.setString(1, TaskIds.forKey(HANDLER, key));
      ps.setString(2, HANDLER);
      ps.setString(3, key);
      ps.setString(4, taskId);
      ps.setLong(5, expiresAt);
      ps.executeUpdate();
    }
  }

  private static List<String> windows(RelayFixture fx) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = fx.connect();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT unique_key, task_id FROM tasklane_unique ORDER BY unique_key")) {
      while (rs.next()) {
        out.add(rs.getString(1) + "=" + rs.getString(2));
      }
    }
    return out;
  }

  private static double counter(String metrics, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*\\})? (\\S+)").matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
