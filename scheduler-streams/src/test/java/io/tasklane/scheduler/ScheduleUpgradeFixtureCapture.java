package io.tasklane.scheduler;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.Unschedule;
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
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Captures the schedule part of the upgrade fixtures ({@link UpgradeFixture#SCHEDULES}) from a
 * scheduler that stores schedule states and logged fires in the JSON form (0.1.0 had no schedules;
 * the JSON form is the one of the builds between it and the binary form): runs that scheduler (its
 * classpath given) on a stack, defines the fixture's schedules through {@code <ns>.tasks}, answers
 * their fires as {@link UpgradeFixture#answer} says, stops it cleanly and writes its changelog
 * topics and the schedules' handler topic to {@code src/test/resources/upgrade/<fixture>/}. Run
 * once, never by the build:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *   io.tasklane.scheduler.ScheduleUpgradeFixtureCapture schedules-json CLASSPATH_OF_THAT_SCHEDULER
 * </pre>
 *
 * on a stack of {@code bin/stack up} ({@code TASKLANE_STACK} set).
 */
public final class ScheduleUpgradeFixtureCapture {
  private ScheduleUpgradeFixtureCapture() {}

  public static void main(String[] args) throws Exception {
    String fixture = args[0];
    String classpath = args[1];
    LocalStack stack = LocalStack.shared();
    String bootstrap = stack.bootstrapServers();
    Topics topics = new Topics("us" + Long.toString(System.currentTimeMillis(), 36));
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
    create.put(topics.handler(UpgradeFixture.SCHED), 1);
    create.put(topics.handlerDlt(UpgradeFixture.SCHED), 1);
    StackSupport.createTopics(bootstrap, create);
    int port = SchedulerProcess.freePort();
    Path dir = Files.createTempDirectory("upgrade-capture");
    try (JavaProcess scheduler =
            JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
                .classpath(classpath)
                .name("scheduler-" + fixture)
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
                .sysProp("tasklane.scheduler.inter-instance-token", StackSupport.INTER_INSTANCE)
                .start();
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap);
        KafkaConsumer<String, byte[]> handler = consumer(bootstrap, topics)) {
      SchedulerProcess.awaitUp(scheduler, port);
      long now = System.currentTimeMillis();
      for (ScheduleDefinition d : UpgradeFixture.schedules()) {
        define(producer, topics, d);
      }
      unschedule(producer, topics, Unschedule.of(UpgradeFixture.DELETED, 1, now));
      Map<String, Integer> made = new HashMap<>();
      boolean paused = false;
      long deadline = System.currentTimeMillis() + 120_000;
      while (!done(port, paused)) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("the schedules did not reach the fixture's states");
        }
        for (ConsumerRecord<String, byte[]> r : handler.poll(Duration.ofMillis(200))) {
          Dispatch d = WireCodec.decodeDispatch(r.value());
          String name = d.task().headers().get(ReservedHeaders.SCHEDULE);
          int n = made.merge(name, 1, Integer::sum);
          Outcome outcome = UpgradeFixture.answer(name, n);
          if (outcome != null) {
            answer(producer, topics, d, outcome);
          }
          if (name.equals(UpgradeFixture.PAUSED) && !paused) {
            define(producer, topics, UpgradeFixture.paused());
            paused = true;
          }
        }
      }
      scheduler.stop(Duration.ofSeconds(30));
    }
    Path out = Path.of("src/test/resources/upgrade", fixture);
    List<UpgradeFixture.Line> changelogs = new ArrayList<>();
    for (String store : UpgradeFixture.STORES.get(fixture)) {
      String topic = app + "-" + store + "-changelog";
      for (ConsumerRecord<byte[], byte[]> r : UpgradeFixtureCapture.all(bootstrap, topic)) {
        changelogs.add(UpgradeFixture.Line.of(store, r));
      }
    }
    UpgradeFixture.write(out.resolve("changelogs.jsonl"), changelogs);
    List<UpgradeFixture.Line> dispatches = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r :
        UpgradeFixtureCapture.all(bootstrap, topics.handler(UpgradeFixture.SCHED))) {
      dispatches.add(UpgradeFixture.Line.of("handler", r));
    }
    UpgradeFixture.write(out.resolve("dispatches.jsonl"), dispatches);
    System.out.printf(
        "wrote %d changelog records and %d dispatches to %s%n",
        changelogs.size(), dispatches.size(), out.toAbsolutePath());
    System.exit(0);
  }

  /**
   * Whether the old scheduler shows every fixture schedule as {@link UpgradeTest} expects it after
   * the upgrade: enough history on the ALLOW one, a running and a skipped fire on the
   * SKIP_IF_RUNNING one, the paused one paused, the deleted one deleted, the far one defined.
   */
  private static boolean done(int port, boolean pausedSent) throws Exception {
    var every = view(port, UpgradeFixture.EVERY);
    var skip = view(port, UpgradeFixture.SKIP);
    var paused = view(port, UpgradeFixture.PAUSED);
    var deleted = view(port, UpgradeFixture.DELETED);
    var far = view(port, UpgradeFixture.FAR_CRON);
    return every != null
        && UpgradeFixture.outcomes(every, "SUCCEEDED") >= UpgradeFixture.SUCCEEDED_FIRES
        && UpgradeFixture.outcomes(every, "DEAD") == 1
        && skip != null
        && UpgradeFixture.outcomes(skip, "RUNNING") == 1
        && UpgradeFixture.outcomes(skip, "SKIPPED") >= 1
        && pausedSent
        && paused != null
        && paused.path("paused").asBoolean()
        && UpgradeFixture.outcomes(paused, "SUCCEEDED") == 1
        && deleted != null
        && deleted.path("deleted").asBoolean()
        && far != null;
  }

  private static com.fasterxml.jackson.databind.JsonNode view(int port, String name)
      throws Exception {
    HttpResponse<String> r = StackSupport.get(port, "/api/schedules/" + name, StackSupport.VIEWER);
    return r.statusCode() == 200 ? WireCodec.readTree(r.body()) : null;
  }

  private static void define(KafkaProducer<String, byte[]> p, Topics topics, ScheduleDefinition d)
      throws Exception {
    p.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(d)))
        .get(10, TimeUnit.SECONDS);
  }

  private static void unschedule(KafkaProducer<String, byte[]> p, Topics topics, Unschedule u)
      throws Exception {
    p.send(new ProducerRecord<>(topics.tasks(), u.name(), WireCodec.encode(u)))
        .get(10, TimeUnit.SECONDS);
  }

  private static void answer(
      KafkaProducer<String, byte[]> p, Topics topics, Dispatch d, Outcome outcome)
      throws Exception {
    long now = System.currentTimeMillis();
    TaskResult r =
        outcome == Outcome.SUCCEEDED
            ? TaskResult.succeeded(d.id(), d.attempt(), now, now, "fixture")
            : TaskResult.failed(
                d.id(),
                d.attempt(),
                outcome,
                new ErrorInfo("Fixture", "fails on purpose", null),
                null,
                now,
                now,
                "fixture");
    p.send(new ProducerRecord<>(topics.results(), d.routingKey(), WireCodec.encode(r.answering(d))))
        .get(10, TimeUnit.SECONDS);
  }

  private static KafkaConsumer<String, byte[]> consumer(String bootstrap, Topics topics) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-worker");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    KafkaConsumer<String, byte[]> c =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    c.subscribe(List.of(topics.handler(UpgradeFixture.SCHED)));
    return c;
  }
}
