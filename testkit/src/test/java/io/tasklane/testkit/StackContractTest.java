package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The stack contract, written once and run against every {@link StackHandle} implementation. */
abstract class StackContractTest {

  abstract StackHandle stack();

  static String unique(String prefix) {
    return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  @Test
  void writesAndReadsARowAsTheAppUser() throws SQLException {
    String url = stack().createDatabase(unique("rw"));
    try (Connection c = DriverManager.getConnection(url, stack().username(), stack().password());
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE task (id BIGINT PRIMARY KEY, payload VARCHAR(100)) ENGINE=InnoDB");
      s.execute("INSERT INTO task VALUES (1, 'héllo ✓')");
      try (ResultSet rs = s.executeQuery("SELECT payload FROM task WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("héllo ✓");
      }
    }
  }

  @Test
  void defaultDatabaseIsUsable() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(stack().jdbcUrl(), stack().username(), stack().password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("tasklane");
    }
  }

  @Test
  void createDatabaseIsolatesAndStartsFresh() throws SQLException {
    String a = unique("iso_a");
    String b = unique("iso_b");
    String urlA = stack().createDatabase(a);
    String urlB = stack().createDatabase(b);
    assertThat(urlA).isEqualTo(stack().jdbcUrl(a)).isNotEqualTo(urlB);
    execute(urlA, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
    execute(urlB, "CREATE TABLE t (id INT PRIMARY KEY)");
    assertThat(count(urlA, "t")).isEqualTo(1);
    assertThat(count(urlB, "t")).isZero();

    stack().createDatabase(a); // fresh again: the table is gone
    try (Connection c = DriverManager.getConnection(urlA, stack().username(), stack().password());
        ResultSet rs = c.getMetaData().getTables(a, null, "t", null)) {
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void roundTripsARecordThroughKafka() {
    String topic = unique("roundtrip");
    stack().createTopic(topic, 3);
    Map<String, Object> producerProps =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            stack().bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps)) {
      producer.send(new ProducerRecord<>(topic, "k1", "v1")).get();
    } catch (Exception e) {
      throw new AssertionError("produce failed", e);
    }
    Map<String, Object> consumerProps =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            stack().bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            unique("group"),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class);
    List<ConsumerRecord<String, String>> received = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInSameThread()
          .pollDelay(Duration.ZERO)
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return !received.isEmpty();
              });
    }
    assertThat(received).hasSize(1);
    assertThat(received.get(0).key()).isEqualTo("k1");
    assertThat(received.get(0).value()).isEqualTo("v1");
  }

  void execute(String url, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, stack().username(), stack().password());
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  long count(String url, String table) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, stack().username(), stack().password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
