package io.tasklane.examples.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.AclTool;
import io.tasklane.core.MethodCall;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TasklaneAcls;
import io.tasklane.core.TasklaneAcls.Role;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.examples.orders.LaneHandlers;
import io.tasklane.examples.orders.OrderRef;
import io.tasklane.examples.orders.OrderService;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.examples.orders.ScheduleHandlers;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.KafkaUser;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.LocalStackConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tasklane on a SASL_SSL (SCRAM-SHA-512) broker that authorizes by ACL: relay, scheduler and worker
 * run as separate JVMs, each logging in as its own principal that holds only the ACLs of {@link
 * TasklaneAcls} (what {@code bin/kafka-acls-tasklane} grants). The stack (own MariaDB, own secured
 * broker) and every process are stopped after the class, also when a test fails.
 */
class SecuredPipelineTest {

  private static final String NS = "secured";
  private static final String DATABASE = "tasklane_secured";
  private static final List<String> WORKER_HANDLERS =
      List.of(
          OrderService.EMAIL,
          OrderService.CANCEL_UNPAID,
          ScenarioHandlers.PARTNER,
          ScenarioHandlers.BROKEN,
          ScenarioHandlers.STEP,
          ScenarioHandlers.DUPLICATE,
          ScenarioHandlers.REMINDER,
          ScenarioHandlers.BATCH_REPORT,
          ScenarioHandlers.REPAIRABLE,
          ScheduleHandlers.SWEEP,
          ScheduleHandlers.SHARD,
          ScheduleHandlers.CHILD,
          LaneHandlers.EVENT,
          MethodCall.DEFAULT_HANDLER);

  private static Path dir;
  private static LocalStack stack;
  private static String url;
  private static KafkaUser relay;
  private static KafkaUser scheduler;
  private static KafkaUser worker;
  private static final List<JavaProcess> processes = new ArrayList<>();

  @BeforeAll
  static void securedStackWithOnePrincipalPerApp() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    dir = Path.of("target", "secured-pipeline-" + run).toAbsolutePath();
    stack = LocalStack.start(LocalStackConfig.builder().baseDir(dir).kafkaSaslSsl(true).build());
    url = stack.createDatabase(DATABASE);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    relay = stack.createKafkaUser("relay");
    scheduler = stack.createKafkaUser("scheduler");
    worker = stack.createKafkaUser("worker");
    Topics topics = new Topics(NS);
    List<org.apache.kafka.common.acl.AclBinding> acls = new ArrayList<>();
    acls.addAll(
        TasklaneAcls.bindings(
            Role.RELAY,
            topics,
            relay.principal(),
            new TasklaneAcls.Grant("tasklane_relay_" + DATABASE, List.of(), false)));
    acls.addAll(
        TasklaneAcls.bindings(
            Role.SCHEDULER,
            topics,
            scheduler.principal(),
            new TasklaneAcls.Grant(NS + "-scheduler", List.of(), false)));
    acls.addAll(
        TasklaneAcls.bindings(
            Role.WORKER,
            topics,
            worker.principal(),
            new TasklaneAcls.Grant(NS + "-worker", WORKER_HANDLERS, false)));
    try (Admin admin = Admin.create(stack.kafkaAdminProperties())) {
      AclTool.apply(admin, acls);
    }
  }

  @AfterAll
  static void stopEverything() {
    try {
      for (JavaProcess p : processes) {
        p.close();
      }
    } finally {
      try {
        if (stack != null) {
          stack.close();
        }
      } finally {
        if (!Boolean.getBoolean("tasklane.keep")) {
          io.tasklane.testkit.internal.Dirs.deleteRecursively(dir);
        }
      }
    }
  }

  @Test
  void taskSucceedsEndToEndWithEachAppOnItsOwnPrincipal() throws Exception {
    Path home = Path.of("").toAbsolutePath().getParent();
    var apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(dir.resolve("run"))
            .stack(stack, url)
            .namespace(NS)
            .build();
    JavaProcess.Builder relayApp = apps.relay("relay");
    relay.securityProperties().forEach((k, v) -> relayApp.sysProp("tasklane.relay.kafka." + k, v));
    // The last -D wins: a strong random API token instead of the demo's.
    JavaProcess.Builder schedulerApp =
        apps.scheduler("scheduler", FreePorts.next())
            .sysProp("tasklane.scheduler.api.tokens", randomToken() + ":operator");
    scheduler
        .securityProperties()
        .forEach((k, v) -> schedulerApp.sysProp("tasklane.scheduler.kafka." + k, v));
    JavaProcess.Builder workerApp = ExampleWorker.recipe(apps, "worker", false);
    worker
        .securityProperties()
        .forEach((k, v) -> workerApp.sysProp("tasklane.worker.kafka." + k, v));
    List<JavaProcess> started =
        List.of(track(relayApp.start()), track(schedulerApp.start()), track(workerApp.start()));

    String taskId;
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      c.setAutoCommit(false);
      taskId =
          JdbcTaskOutbox.of(c)
              .enqueue(TaskRequest.to(OrderService.EMAIL).payload(new OrderRef(4242)));
      c.commit();
    }

    try (KafkaConsumer<String, byte[]> results = adminConsumer()) {
      results.subscribe(List.of(new Topics(NS).results()));
      List<TaskResult> seen = new ArrayList<>();
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(100))
          .failFast(
              "an app died",
              () -> assertThat(started).as(() -> logs(started)).allMatch(JavaProcess::isAlive))
          .untilAsserted(
              () -> {
                for (ConsumerRecord<String, byte[]> r : results.poll(Duration.ofMillis(500))) {
                  seen.add(WireCodec.decodeResult(r.value()));
                }
                assertThat(seen)
                    .as(() -> logs(started))
                    .anyMatch(t -> t.id().equals(taskId) && t.outcome() == Outcome.SUCCEEDED);
              });
    }
    // The minimal ACLs are enough: no app was refused anything on its way.
    for (JavaProcess p : started) {
      assertThat(java.nio.file.Files.readString(p.logFile()))
          .as(p.toString())
          .doesNotContainIgnoringCase("AuthorizationException")
          .doesNotContainIgnoringCase("not authorized");
    }
  }

  @Test
  void workerPrincipalCannotWriteTasksOrControlButWritesResults() throws Exception {
    Topics topics = new Topics(NS);
    for (String topic : List.of(topics.tasks(), topics.results(), topics.control())) {
      try {
        stack.createTopic(topic, 6);
      } catch (IllegalStateException alreadyThere) {
        // created by the pipeline test or an app
      }
    }
    Map<String, Object> props = worker.clientProperties(stack.bootstrapServers());
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
      for (String forbidden : List.of(topics.tasks(), topics.control())) {
        assertThatThrownBy(
                () ->
                    producer
                        .send(new ProducerRecord<>(forbidden, "forged", new byte[] {'{', '}'}))
                        .get(20, TimeUnit.SECONDS))
            .hasCauseInstanceOf(TopicAuthorizationException.class)
            .hasMessageContaining(forbidden);
      }
      // Its own job: results (a record the scheduler drops as undecodable is enough here).
      assertThat(
              producer
                  .send(new ProducerRecord<>(topics.results(), "probe", new byte[] {'{', '}'}))
                  .get(20, TimeUnit.SECONDS)
                  .topic())
          .isEqualTo(topics.results());
    }
  }

  private static KafkaConsumer<String, byte[]> adminConsumer() {
    Map<String, Object> p = new HashMap<>(stack.kafkaAdminProperties());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "secured-test-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return new KafkaConsumer<>(
        p,
        new StringDeserializer(),
        new org.apache.kafka.common.serialization.ByteArrayDeserializer());
  }

  private static JavaProcess track(JavaProcess p) {
    processes.add(p);
    return p;
  }

  private static String logs(List<JavaProcess> ps) {
    StringBuilder b = new StringBuilder();
    for (JavaProcess p : ps) {
      b.append("\n--- ").append(p).append(p.isAlive() ? "" : " (dead)").append('\n');
      b.append(p.logTail(25));
    }
    return b.toString();
  }

  private static String randomToken() {
    byte[] bytes = new byte[24];
    new java.security.SecureRandom().nextBytes(bytes);
    return java.util.HexFormat.of().formatHex(bytes);
  }
}
