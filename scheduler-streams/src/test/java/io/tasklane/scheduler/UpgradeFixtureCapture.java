package io.tasklane.scheduler;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Captures the {@link UpgradeFixture} from a scheduler of an earlier release: runs that scheduler
 * (its classpath given) on a stack, makes the fixture's tasks, answers two of them, stops it
 * cleanly and writes its changelog topics and the handler topic to {@code
 * src/test/resources/upgrade/<release>/}. Run once per release, never by the build:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *   io.tasklane.scheduler.UpgradeFixtureCapture 0.1.0 CLASSPATH_OF_THAT_RELEASES_SCHEDULER
 * </pre>
 *
 * on a stack of {@code bin/stack up} ({@code TASKLANE_STACK} set).
 */
public final class UpgradeFixtureCapture {
  private UpgradeFixtureCapture() {}

  public static void main(String[] args) throws Exception {
    String release = args[0];
    String classpath = args[1];
    LocalStack stack = LocalStack.shared();
    String bootstrap = stack.bootstrapServers();
    Topics topics = new Topics("up" + Long.toString(System.currentTimeMillis(), 36));
    String app = topics.namespace() + "-scheduler";
    Map<String, Integer> create = new HashMap<>();
    for (String t :
        List.of(
            topics.tasks(),
            topics.results(),
            topics.control(),
            topics.logs(),
            topics.schedules())) {
      create.put(t, UpgradeFixture.PARTITIONS);
    }
    create.put(topics.handler(UpgradeFixture.WORK), 1);
    create.put(topics.handlerDlt(UpgradeFixture.WORK), 1);
    StackSupport.createTopics(bootstrap, create);
    int port = SchedulerProcess.freePort();
    Path dir = Files.createTempDirectory("upgrade-capture");
    long now = System.currentTimeMillis();
    try (JavaProcess scheduler =
            JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
                .classpath(classpath)
                .name("scheduler-" + release)
                .jvmArg("-Xmx256m")
                .sysProp("micronaut.server.port", String.valueOf(port))
                .sysProp("tasklane.scheduler.bootstrap-servers", bootstrap)
                .sysProp("tasklane.scheduler.namespace", topics.namespace())
                .sysProp("tasklane.scheduler.application-id", app)
                .sysProp("tasklane.scheduler.partitions", "" + UpgradeFixture.PARTITIONS)
                .sysProp("tasklane.scheduler.state-dir", dir.toString())
                .sysProp("tasklane.scheduler.topic-refresh-interval", "1s")
                .sysProp("tasklane.scheduler.retention", "3650d")
                .sysProp(
                    "tasklane.scheduler.api.tokens",
                    "viewer-bob:" + StackSupport.VIEWER + ":viewer")
                .start();
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      SchedulerProcess.awaitUp(scheduler, port);
      for (String id : UpgradeFixture.expected().keySet()) {
        if (!id.startsWith("waiting")) {
          send(producer, topics, UpgradeFixture.task(id, now));
        }
      }
      send(producer, topics, UpgradeFixture.task("waiting-1", now));
      send(producer, topics, UpgradeFixture.task("waiting-2", now));
      producer
          .send(
              new ProducerRecord<>(
                  topics.tasks(),
                  UpgradeFixture.id("delayed-3"),
                  WireCodec.encode(
                      CancelCommand.of(UpgradeFixture.id("delayed-3"), "fixture", now))))
          .get(10, TimeUnit.SECONDS);
      for (Dispatch d : dispatches(bootstrap, topics, 5)) {
        String id = d.task().id();
        if (id.equals(UpgradeFixture.id("succeeded-1"))) {
          result(producer, topics, TaskResult.succeeded(id, d.attempt(), now, now, "fixture"));
        } else if (id.equals(UpgradeFixture.id("dead-1"))) {
          result(
              producer,
              topics,
              TaskResult.failed(
                  id,
                  d.attempt(),
                  io.tasklane.core.Outcome.FAILED,
                  new ErrorInfo("Fixture", "fails on purpose", null),
                  null,
                  now,
                  now,
                  "fixture"));
        }
      }
      awaitStates(port);
      scheduler.stop(Duration.ofSeconds(30));
    }
    Path out = Path.of("src/test/resources/upgrade", release);
    List<UpgradeFixture.Line> changelogs = new ArrayList<>();
    for (String store : UpgradeFixture.STORES.get(release)) {
      String topic = app + "-" + store + "-changelog";
      for (ConsumerRecord<byte[], byte[]> r : all(bootstrap, topic)) {
        changelogs.add(UpgradeFixture.Line.of(store, r));
      }
    }
    UpgradeFixture.write(out.resolve("changelogs.jsonl"), changelogs);
    List<UpgradeFixture.Line> handler = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : all(bootstrap, topics.handler(UpgradeFixture.WORK))) {
      handler.add(UpgradeFixture.Line.of("handler", r));
    }
    UpgradeFixture.write(out.resolve("dispatches.jsonl"), handler);
    System.out.printf(
        "wrote %d changelog records and %d dispatches to %s%n",
        changelogs.size(), handler.size(), out.toAbsolutePath());
    System.exit(0);
  }

  private static void send(KafkaProducer<String, byte[]> p, Topics topics, TaskEnvelope t)
      throws Exception {
    StackSupport.send(p, topics, t);
  }

  private static void result(KafkaProducer<String, byte[]> p, Topics topics, TaskResult r)
      throws Exception {
    p.send(new ProducerRecord<>(topics.results(), r.id(), WireCodec.encode(r)))
        .get(10, TimeUnit.SECONDS);
  }

  private static List<Dispatch> dispatches(String bootstrap, Topics topics, int min) {
    return StackSupport.readAll(bootstrap, topics.handler(UpgradeFixture.WORK), min).stream()
        .map(r -> WireCodec.decodeDispatch(r.value()))
        .toList();
  }

  /** Polls the old scheduler's API until every fixture task is in its expected state. */
  private static void awaitStates(int port) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    for (Map.Entry<String, TaskState> e : UpgradeFixture.expected().entrySet()) {
      while (true) {
        HttpResponse<String> r =
            StackSupport.get(
                port, "/api/tasks/" + UpgradeFixture.id(e.getKey()), StackSupport.VIEWER);
        if (r.statusCode() == 200
            && WireCodec.readTree(r.body()).path("state").asText().equals(e.getValue().name())) {
          break;
        }
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(e.getKey() + " is not " + e.getValue() + ": " + r.body());
        }
        Thread.sleep(200);
      }
    }
  }

  /** Every record of {@code topic} from the beginning. */
  static List<ConsumerRecord<byte[], byte[]>> all(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = System.currentTimeMillis() + 30_000;
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))
          && System.currentTimeMillis() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(out::add);
      }
    }
    return out;
  }
}
