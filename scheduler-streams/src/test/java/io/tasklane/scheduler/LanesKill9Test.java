package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.ADMIN;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ordered lanes on the real stack while the scheduler process is killed with SIGKILL and started
 * again on the same state, and a worker stops dead (no answer to what it holds, its dispatches
 * redelivered to the next one): every task of every key runs, no two tasks of one key run at once,
 * and each starts only after the one enqueued before it succeeded (a task that fails once holds its
 * lane through its retry). The lanes' view and setting work on the way.
 */
@TasklaneStack
class LanesKill9Test {
  static final String HANDLER = "lanes.kill";
  static final int KEYS = 40;
  static final int PER_KEY = 10;

  @TempDir Path dir;

  /**
   * A worker stand-in that runs each dispatch on a pool for a few milliseconds and then answers it,
   * checking the lanes: per key, which tasks run now, and which place finished last.
   */
  static final class LaneWorker implements AutoCloseable {
    static final Map<String, Set<String>> running = new ConcurrentHashMap<>();

    /** How long a task runs: long at first, so that the lanes outlast the gauge's 5 s reads. */
    static volatile long runMs = 15;

    static final Map<String, Integer> lastDone = new ConcurrentHashMap<>();
    static final Set<String> failedOnce = ConcurrentHashMap.newKeySet();
    static final Set<String> succeeded = ConcurrentHashMap.newKeySet();
    static final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
    static final AtomicInteger starts = new AtomicInteger();

    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final AtomicBoolean answering = new AtomicBoolean(true);
    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private final Thread thread;

    LaneWorker(String bootstrap, Topics topics) {
      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-worker");
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000");
      p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
      KafkaConsumer<String, byte[]> consumer =
          new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
      KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap);
      consumer.subscribe(List.of(topics.handler(HANDLER)));
      thread =
          new Thread(
              () -> {
                try (producer;
                    consumer) {
                  while (polling.get()) {
                    List<java.util.concurrent.Future<?>> batch = new ArrayList<>();
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                      Dispatch d = WireCodec.decodeDispatch(r.value());
                      batch.add(pool.submit(() -> run(d, producer, topics)));
                    }
                    for (var f : batch) {
                      try {
                        f.get();
                      } catch (Exception e) {
                        break; // stopped dead
                      }
                    }
                    if (answering.get()) {
                      consumer.commitSync(); // what this batch answered; a dead one commits nothing
                    }
                  }
                }
              },
              "lane-worker");
      thread.start();
    }

    private void run(Dispatch d, KafkaProducer<String, byte[]> producer, Topics topics) {
      String key = d.task().orderingKey();
      int seq = d.task().payload().get("seq").asInt();
      if (succeeded.contains(d.id())) {
        answer(d, false, producer, topics); // a redelivery: an idempotent worker only answers again
        return;
      }
      starts.incrementAndGet();
      Set<String> now = running.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
      synchronized (now) {
        for (String other : now) {
          if (!other.equals(d.id())) {
            violations.add("overlap on " + key + ": " + d.id() + " with " + other);
          }
        }
        int before = lastDone.getOrDefault(key, -1);
        if (seq != before + 1 && seq != before) {
          violations.add("order on " + key + ": place " + seq + " started after " + before);
        }
        now.add(d.id());
      }
      try {
        Thread.sleep(runMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (!answering.get()) {
        return; // stopped dead: it never answers what it holds
      }
      boolean fail = seq % 7 == 3 && failedOnce.add(d.id());
      synchronized (now) {
        now.remove(d.id());
        if (!fail) {
          lastDone.merge(key, seq, Math::max);
          succeeded.add(d.id());
        }
      }
      answer(d, fail, producer, topics);
    }

    private static void answer(
        Dispatch d, boolean fail, KafkaProducer<String, byte[]> producer, Topics topics) {
      long t = System.currentTimeMillis();
      TaskResult result =
          fail
              ? TaskResult.failed(
                  d.id(),
                  d.attempt(),
                  Outcome.FAILED,
                  new ErrorInfo("once", "X", null),
                  null,
                  t,
                  t,
                  "lane-worker")
              : TaskResult.succeeded(d.id(), d.attempt(), t, t, "lane-worker");
      producer.send(
          new ProducerRecord<>(
              topics.results(), d.routingKey(), WireCodec.encode(result.answering(d))));
    }

    /** Stops as a kill -9 would: no answer for what it holds, no commit of what it took. */
    void die() throws InterruptedException {
      answering.set(false);
      polling.set(false);
      for (Runnable never : pool.shutdownNow()) {
        ((java.util.concurrent.Future<?>) never).cancel(true); // its batch stops waiting for it
      }
      thread.join(10_000);
      assertThat(thread.isAlive()).as("the dead worker's consumer left its group").isFalse();
      // what it was running is not running any more
      running.values().forEach(Set::clear);
    }

    @Override
    public void close() throws InterruptedException {
      polling.set(false);
      thread.join(10_000);
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /** The lanes and the stuck keys' tasks as the scheduler shows them, for a failure's message. */
  private static String diagnose(int port) {
    StringBuilder out = new StringBuilder();
    try {
      JsonNode lanes =
          WireCodec.readTree(
              StackSupport.get(port, "/api/handlers/" + HANDLER + "/lanes?limit=100", VIEWER)
                  .body());
      out.append("lanes: ").append(lanes).append('\n');
      for (JsonNode lane : lanes.get("top")) {
        String key = lane.get("key").asText();
        java.util.List<String> ids = new ArrayList<>();
        lane.get("holders").fieldNames().forEachRemaining(ids::add);
        if (!lane.get("head").isNull()) {
          ids.add(lane.get("head").asText());
        }
        for (String id : ids) {
          out.append(key)
              .append(' ')
              .append(
                  StackSupport.get(port, "/api/tasks/" + id + "?routingKey=" + key, VIEWER).body())
              .append('\n');
        }
      }
    } catch (Exception e) {
      out.append("(could not read the lanes: ").append(e).append(')');
    }
    return out.toString();
  }

  @Test
  void orderedLanesKeepTheirOrderAndNeverOverlapAcrossAKill9OfTheSchedulerAndAWorker(
      LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    int port = SchedulerProcess.freePort();
    Map<String, String> settings =
        Map.of("api.tokens", "viewer-bob:" + VIEWER + ":viewer,admin-al:" + ADMIN + ":admin");
    LaneWorker.runMs = 700; // each lane busy for 7 s: the lane gauge (read every 5 s) sees it
    LaneWorker first = new LaneWorker(stack.bootstrapServers(), topics);
    LaneWorker second = null;
    try (KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      List<TaskEnvelope> sent = new ArrayList<>();

      try (JavaProcess a = SchedulerProcess.start(stack, topics, dir, "a", port, settings)) {
        SchedulerProcess.awaitUp(a, port);
        for (int i = 0; i < PER_KEY; i++) {
          for (int k = 0; k < KEYS; k++) {
            TaskEnvelope t =
                TaskEnvelope.builder()
                    .id(UUID.randomUUID().toString())
                    .handler(HANDLER)
                    .orderingKey("order-" + k)
                    .payload(WireCodec.readTree("{\"seq\":" + i + "}"))
                    .maxAttempts(5)
                    .timeoutMs(20_000)
                    .backoff(RetryPolicy.fixed(Duration.ofMillis(500)))
                    .createdAt(System.currentTimeMillis())
                    .build();
            producer.send(
                new ProducerRecord<>(topics.tasks(), t.routingKey(), WireCodec.encode(t)));
            sent.add(t);
          }
        }
        producer.flush();
        JsonNode lanes =
            WireCodec.readTree(
                StackSupport.get(port, "/api/handlers/" + HANDLER + "/lanes?limit=5", VIEWER)
                    .body());
        assertThat(lanes.get("top").size()).as(lanes.toString()).isLessThanOrEqualTo(5);
        assertThat(lanes.get("onDead").asText()).isEqualTo("BLOCK");
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(StackSupport.get(port, "/prometheus", VIEWER).body().lines())
                        .anyMatch(
                            l ->
                                l.startsWith("tasklane_scheduler_lanes{kind=\"lanes\"")
                                    && !l.endsWith(" 0.0")));
        LaneWorker.runMs = 15;
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> assertThat(LaneWorker.starts.get()).as(a.logTail(30)).isGreaterThan(80));
        a.kill9();
      }
      first.die();
      second = new LaneWorker(stack.bootstrapServers(), topics);
      try (JavaProcess b = SchedulerProcess.start(stack, topics, dir, "a", port, settings)) {
        SchedulerProcess.awaitUp(b, port);
        var set = StackSupport.post(port, "/api/handlers/" + HANDLER + "/lanes?onDead=SKIP", ADMIN);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(WireCodec.readTree(set.body()).get("onDead").asText()).isEqualTo("SKIP");
        try {
          await()
              .atMost(Duration.ofSeconds(180))
              .untilAsserted(
                  () -> {
                    assertThat(LaneWorker.violations).isEmpty();
                    for (int k = 0; k < KEYS; k++) {
                      assertThat(LaneWorker.lastDone.get("order-" + k))
                          .as("key order-" + k + "\n" + b.logTail(20))
                          .isEqualTo(PER_KEY - 1);
                    }
                  });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
          throw new AssertionError(e.getMessage() + "\n" + diagnose(port), e);
        }
        JsonNode after =
            WireCodec.readTree(
                StackSupport.get(port, "/api/handlers/" + HANDLER + "/lanes", VIEWER).body());
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(
                            WireCodec.readTree(
                                    StackSupport.get(
                                            port, "/api/handlers/" + HANDLER + "/lanes", VIEWER)
                                        .body())
                                .get("lanes")
                                .asLong())
                        .as("every lane ended: " + after)
                        .isZero());
      }
      assertThat(LaneWorker.violations).isEmpty();
      assertThat(sent).hasSize(KEYS * PER_KEY);
    } finally {
      first.close();
      if (second != null) {
        second.close();
      }
    }
  }
}
