package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.relay.RelayConfig;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * With no broker listening, the batch consumer retries with backoff and never marks a record
 * processed (so Debezium never advances the offset); stopping the relay abandons the batch
 * unmarked. (The broker's return is not tested: the shared stack's broker cannot be stopped.)
 */
class KafkaDownTest {

  @Test
  void retriesWithoutMarkingRecordsProcessedWhileKafkaIsDown() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort(); // closed again: nothing listens there
    }
    RelayConfig config =
        RelayConfig.fromProperties(
            Map.of(
                "tasklane.relay.jdbc-url", "jdbc:mariadb://127.0.0.1:1/db",
                "tasklane.relay.username", "u",
                "tasklane.relay.bootstrap-servers", "127.0.0.1:" + deadPort,
                "tasklane.relay.max-send-backoff", "200ms",
                "tasklane.relay.kafka.delivery.timeout.ms", "1000",
                "tasklane.relay.kafka.request.timeout.ms", "500",
                "tasklane.relay.kafka.max.block.ms", "500"));
    RelayMetrics metrics = new RelayMetrics(Clock.systemUTC());
    AtomicBoolean stopping = new AtomicBoolean();
    AtomicInteger marked = new AtomicInteger();
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    try (KafkaSender sender =
        new KafkaSender(new KafkaClients(config), metrics, config.maxSendBackoff())) {
      var consumer =
          new BatchConsumer(
              new RowMapper("tasklane_outbox", TaskLimits.DEFAULT),
              sender,
              config.topics(),
              "tasklane_outbox",
              metrics,
              Clock.systemUTC(),
              stopping::get,
              o -> {});
      Thread engineThread =
          new Thread(
              () -> {
                try {
                  consumer.handleBatch(
                      List.of(InsertEvents.task(1, TaskIds.keyless(Clock.systemUTC()), "{}")),
                      InsertEvents.committer(marked));
                  outcome.set(new AssertionError("batch reported as sent"));
                } catch (Throwable t) {
                  outcome.set(t);
                }
              });
      engineThread.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> metrics.sendRetries.count() >= 3);
      assertThat(marked).hasValue(0);
      stopping.set(true);
      engineThread.join(30_000);
    }
    assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
    assertThat(marked).hasValue(0);
    assertThat(metrics.relayed()).isZero();
    assertThat(metrics.watermarkValue()).isZero();
  }
}
