package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WorkerHeartbeat;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dispatch sent ahead of its instant ({@code notBefore}, a schedule fire) on a real broker: the
 * worker starts it at the instant, never before, without holding its only pool thread meanwhile; an
 * interrupt that comes while it is held cancels it unrun; a {@code notBefore} further ahead than a
 * worker holds goes to the DLT; and the worker's heartbeat says that it holds.
 */
@TasklaneStack
class HeldDispatchTest {
  private static WorkerFixture fx;
  private static Started started;

  @Singleton
  @Requires(property = "test.suite", value = "held")
  static class Started {
    final Map<String, Long> at = new ConcurrentHashMap<>();
  }

  @Singleton
  @Requires(property = "test.suite", value = "held")
  static class Handlers {
    private final Started started;

    Handlers(Started started) {
      this.started = started;
    }

    @TaskHandler("held")
    public void held(String mode, TaskContext ctx) {
      started.at.put(ctx.taskId(), System.currentTimeMillis());
    }
  }

  @BeforeAll
  static void start(LocalStack stack) {
    fx = new WorkerFixture(stack, "held", List.of("held"));
    started =
        fx.start(
                Map.of(
                    "tasklane.worker.idempotency.enabled",
                    false,
                    "tasklane.worker.handlers.held.concurrency",
                    1,
                    "tasklane.worker.heartbeat-interval",
                    "1s"))
            .getBean(Started.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  private static Dispatch ahead(long notBefore) {
    Dispatch d = Dispatches.of("held", "ok", 30_000);
    return new Dispatch(
        d.v(), d.task(), 1, notBefore + 60_000, d.routingKey(), d.dispatchedAt(), notBefore);
  }

  @Test
  void aDispatchSentAheadStartsAtItsInstantAndDoesNotHoldThePoolThread() {
    long instant = System.currentTimeMillis() + 4_000;
    Dispatch held = ahead(instant);
    Dispatch now = Dispatches.of("held", "ok", 30_000);
    fx.send(held);
    fx.send(now);

    TaskResult first = fx.awaitResult(now.id());
    assertThat(first.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(started.at.get(now.id()))
        .as("the only pool thread ran another task while the first one was held")
        .isLessThan(instant);

    TaskResult r = fx.awaitResult(held.id(), Duration.ofSeconds(30));
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(started.at.get(held.id()))
        .as("never before its instant")
        .isGreaterThanOrEqualTo(instant);
    assertThat(r.startedAt()).isGreaterThanOrEqualTo(instant);
  }

  /** A dispatch sent at {@code dispatchedAt} with the slot {@code notBefore}. */
  private static Dispatch slot(long dispatchedAt, long notBefore, Long tolerance) {
    Dispatch d = Dispatches.of("held", "ok", 30_000);
    return new Dispatch(
        d.v(),
        d.task(),
        1,
        notBefore + 60_000,
        d.routingKey(),
        dispatchedAt,
        notBefore,
        null,
        tolerance);
  }

  @Test
  void anAttemptLateForItsRateSlotIsSentBackUnrunAndOneOnTimeStartsAtItsSlot() {
    long now = System.currentTimeMillis();
    // sent 5.3 s ago for a slot 5 s ago: a redelivery after the worker that held it died
    Dispatch late = slot(now - 5_300, now - 5_000, 119L);
    Dispatch lateWithoutSlot = slot(now - 5_300, now - 5_000, null);
    Dispatch onTime = slot(now, now + 2_000, 119L);
    fx.send(late);
    fx.send(lateWithoutSlot);
    fx.send(onTime);

    TaskResult back = fx.awaitResult(late.id(), Duration.ofSeconds(30));
    assertThat(back.outcome()).isEqualTo(Outcome.SLOT_MISSED);
    assertThat(back.error().message()).startsWith("not started: its rate-limit slot passed");
    assertThat(started.at).doesNotContainKey(late.id());
    assertThat(fx.awaitResult(lateWithoutSlot.id(), Duration.ofSeconds(30)).outcome())
        .as("a schedule fire's notBefore is no rate slot: it runs however late")
        .isEqualTo(Outcome.SUCCEEDED);
    TaskResult ran = fx.awaitResult(onTime.id(), Duration.ofSeconds(30));
    assertThat(ran.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(started.at.get(onTime.id())).isGreaterThanOrEqualTo(onTime.notBefore());
  }

  @Test
  void anInterruptWhileHeldCancelsItUnrun(LocalStack stack) throws Exception {
    Dispatch held = ahead(System.currentTimeMillis() + 4_000);
    fx.send(held);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      TaskInterrupt stop = TaskInterrupt.of(held.id(), 1, "cancelled: test", 0);
      producer
          .send(new ProducerRecord<>(fx.topics.interrupts(), held.id(), WireCodec.encode(stop)))
          .get(30, TimeUnit.SECONDS);
    }

    TaskResult r = fx.awaitResult(held.id(), Duration.ofSeconds(30));
    assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
    assertThat(started.at).doesNotContainKey(held.id());
  }

  @Test
  void aNotBeforeFurtherAheadThanAWorkerHoldsIsDeadLettered() {
    Dispatch far = ahead(System.currentTimeMillis() + 10 * 60_000);
    fx.send(far);

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                fx.deadLetters("held").stream()
                    .anyMatch(
                        r ->
                            new String(r.value(), StandardCharsets.UTF_8).contains(far.id())
                                && headerText(r).contains("120000 ms a worker holds")));
    assertThat(started.at).doesNotContainKey(far.id());
  }

  @Test
  void theHeartbeatSaysTheWorkerHoldsDispatches(LocalStack stack) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "held-test-heartbeats");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(fx.topics.workers()));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                  if (r.value() != null) {
                    WorkerHeartbeat beat = WireCodec.decodeHeartbeat(r.value());
                    if (beat.handlers().stream().anyMatch(h -> h.name().equals("held"))) {
                      return beat.holdsDispatches();
                    }
                  }
                }
                return false;
              });
    }
  }

  private static String headerText(ConsumerRecord<byte[], byte[]> r) {
    StringBuilder b = new StringBuilder();
    r.headers().forEach(h -> b.append(new String(h.value(), StandardCharsets.UTF_8)).append('\n'));
    return b.toString();
  }
}
