package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.WorkerConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClientsTest {
  private static final Map<String, String> SASL =
      Map.of(
          "security.protocol", "SASL_SSL",
          "sasl.mechanism", "SCRAM-SHA-512",
          "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;",
          "ssl.truststore.location", "/etc/kafka/truststore.jks");

  private static WorkerConfig config(Map<String, String> kafka) {
    return WorkerConfig.builder()
        .topics(new Topics("acme"))
        .bootstrapServers("broker:9093")
        .workerName("w1")
        .kafka(kafka)
        .build();
  }

  @Test
  void everyClientTakesTheKafkaPassThroughAndKeepsItsDeliverySettings() {
    WorkerConfig config = config(SASL);
    HandlerConfig hc = HandlerConfig.defaults(config);
    Map<String, Object> producer = KafkaClients.producerConfig(config);
    Map<String, Object> consumer = KafkaClients.consumerConfig(config, "mail", hc);
    Map<String, Object> admin = KafkaClients.adminConfig(config);

    for (Map<String, Object> client : List.of(producer, consumer, admin)) {
      assertThat(client)
          .containsAllEntriesOf(SASL)
          .containsEntry("bootstrap.servers", "broker:9093");
    }
    assertThat(producer)
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", true)
        .containsEntry("max.request.size", TopicAdmin.MAX_MESSAGE_BYTES);
    assertThat(consumer)
        .containsEntry("enable.auto.commit", false)
        .containsEntry("auto.offset.reset", "earliest")
        .containsEntry("group.id", "acme-worker.mail")
        .containsEntry("max.poll.records", hc.maxInFlight());
  }

  @Test
  void onlyTheHandlerConsumersTakeAStaticGroupInstanceId() {
    WorkerConfig config = config(Map.of("group.instance.id", "worker-a"));
    HandlerConfig hc = HandlerConfig.defaults(config);
    assertThat(KafkaClients.consumerConfig(config, "mail", hc))
        .containsEntry("group.instance.id", "worker-a");
    assertThat(KafkaClients.producerConfig(config)).doesNotContainKey("group.instance.id");
    assertThat(KafkaClients.adminConfig(config)).doesNotContainKey("group.instance.id");
  }

  @Test
  void handlerConsumersTakeTheSessionTimeoutUnlessKafkaSettingsOrTheNewProtocolDecide() {
    HandlerConfig hc = HandlerConfig.defaults(config(Map.of()));
    assertThat(KafkaClients.consumerConfig(config(Map.of()), "mail", hc))
        .containsEntry("session.timeout.ms", 6000)
        .containsEntry("heartbeat.interval.ms", 1500)
        .containsEntry(
            "partition.assignment.strategy",
            "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
    WorkerConfig ten =
        WorkerConfig.builder()
            .topics(new Topics("acme"))
            .bootstrapServers("broker:9093")
            .sessionTimeout(java.time.Duration.ofSeconds(10))
            .build();
    assertThat(KafkaClients.consumerConfig(ten, "mail", hc))
        .containsEntry("session.timeout.ms", 10000)
        .containsEntry("heartbeat.interval.ms", 2500);
    assertThat(
            KafkaClients.consumerConfig(config(Map.of("session.timeout.ms", "45000")), "mail", hc))
        .containsEntry("session.timeout.ms", "45000")
        .containsEntry("heartbeat.interval.ms", 11250);
    assertThat(
            KafkaClients.consumerConfig(config(Map.of("session.timeout.ms", "1200")), "mail", hc))
        .as("a session shorter than the configured one brings the heartbeat down with it")
        .containsEntry("heartbeat.interval.ms", 300);
    assertThat(
            KafkaClients.consumerConfig(config(Map.of("group.protocol", "consumer")), "mail", hc))
        .doesNotContainKeys(
            "session.timeout.ms", "heartbeat.interval.ms", "partition.assignment.strategy");
  }
}
