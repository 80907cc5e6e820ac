package io.tasklane.scheduler;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Not a test: a benchmark harness. For each processing guarantee it starts a scheduler in-process
 * on the local stack and measures (1) throughput: N tasks due now, admitted, dispatched, answered
 * SUCCEEDED by a fake worker in this JVM; (2) dispatch lateness with M delayed tasks pending at
 * once. Run: {@code java -cp <test classpath> io.tasklane.scheduler.SchedulerBench [N] [M]}.
 */
public final class SchedulerBench {
  static final String HANDLER = "bench";

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int m = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    List<String> guarantees =
        args.length > 2 ? List.of(args[2].split(",")) : List.of("at_least_once", "exactly_once_v2");
    LocalStack stack = LocalStack.shared();
    for (String g : guarantees) {
      run(stack, g, n, m);
    }
    System.exit(0);
  }

  static void run(LocalStack stack, String guarantee, int n, int m) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 6));
    Path state = Files.createTempDirectory("bench-state");
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.state-dir", state.toString());
    p.put("tasklane.scheduler.processing-guarantee", guarantee);
    p.put("tasklane.scheduler.api.tokens", StackSupport.VIEWER + ":viewer");
    try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, p);
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers());
        KafkaConsumer<String, byte[]> worker = consumer(stack, topics)) {
      worker.subscribe(List.of(topics.handler(HANDLER)));
      worker.poll(Duration.ofSeconds(2));
      // 1. Throughput: admit → dispatch → result, all due now.
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        send(producer, topics, System.currentTimeMillis());
      }
      producer.flush();
      int got = 0;
      Histogram e2e = new Histogram(3_600_000L, 3);
      while (got < n) {
        for (ConsumerRecord<String, byte[]> r : worker.poll(Duration.ofMillis(200))) {
          Dispatch d = WireCodec.decodeDispatch(r.value());
          e2e.recordValue(Math.max(0, System.currentTimeMillis() - d.task().createdAt()));
          long now = System.currentTimeMillis();
          TaskResult ok = TaskResult.succeeded(d.id(), d.attempt(), now, now, "bench");
          producer.send(
              new ProducerRecord<>(topics.results(), d.routingKey(), WireCodec.encode(ok)));
          got++;
        }
      }
      producer.flush();
      double secs = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "%s throughput: %d tasks due now admitted+dispatched+answered in %.1f s = %.0f tasks/s;"
              + " enqueue→dispatch p50 %d ms p99 %d ms%n",
          guarantee, n, secs, n / secs, e2e.getValueAtPercentile(50), e2e.getValueAtPercentile(99));

      // 2. Lateness with m delayed tasks pending at once.
      long base = System.currentTimeMillis() + Math.max(30_000, m / 3);
      long window = 20_000;
      for (int i = 0; i < m; i++) {
        send(producer, topics, base + (i * window) / m);
      }
      producer.flush();
      Histogram lateness = new Histogram(3_600_000L, 3);
      Histogram received = new Histogram(3_600_000L, 3);
      int early = 0;
      got = 0;
      long deadline =
          System.currentTimeMillis() + base - System.currentTimeMillis() + window + 120_000;
      while (got < m && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, byte[]> r : worker.poll(Duration.ofMillis(200))) {
          Dispatch d = WireCodec.decodeDispatch(r.value());
          long late = d.dispatchedAt() - d.task().dueAt();
          if (late < 0) {
            early++;
          }
          lateness.recordValue(Math.max(0, late));
          received.recordValue(Math.max(0, System.currentTimeMillis() - d.task().dueAt()));
          got++;
        }
      }
      System.out.printf(
          "%s lateness with %d delayed tasks pending (due over %d s): dispatched %d, early %d;"
              + " dispatchedAt-dueAt p50 %d ms p99 %d ms max %d ms;"
              + " worker receive-dueAt p50 %d ms p99 %d ms%n",
          guarantee,
          m,
          window / 1000,
          got,
          early,
          lateness.getValueAtPercentile(50),
          lateness.getValueAtPercentile(99),
          lateness.getMaxValue(),
          received.getValueAtPercentile(50),
          received.getValueAtPercentile(99));
    }
  }

  private static void send(KafkaProducer<String, byte[]> producer, Topics topics, long dueAt) {
    TaskEnvelope t =
        TaskEnvelope.builder()
            .id(UUID.randomUUID().toString())
            .handler(HANDLER)
            .payload(WireCodec.readTree("{\"x\":1}"))
            .dueAt(dueAt)
            .maxAttempts(3)
            .timeoutMs(60_000)
            .backoff(RetryPolicy.sidekiq())
            .createdAt(System.currentTimeMillis())
            .build();
    producer.send(new ProducerRecord<>(topics.tasks(), t.routingKey(), WireCodec.encode(t)));
  }

  private static KafkaConsumer<String, byte[]> consumer(LocalStack stack, Topics topics) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-bench");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
  }
}
