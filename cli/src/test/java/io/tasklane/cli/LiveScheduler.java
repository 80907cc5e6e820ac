package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.Secrets;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The real scheduler app as a child JVM on the shared stack, in a namespace of its own, with a
 * viewer and an operator token made for this run, and a producer to put tasks and schedules on its
 * {@code tasks} topic. Closing it stops the process.
 */
final class LiveScheduler implements AutoCloseable {
  final String viewer = Secrets.token();
  final String operator = Secrets.token();
  final String admin = Secrets.token();
  final Topics topics =
      new Topics("cli" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
  final String bootstrap;
  final String endpoint;
  private final JavaProcess process;
  private final KafkaProducer<String, byte[]> producer;

  LiveScheduler(LocalStack stack, Path stateDir) throws Exception {
    this.bootstrap = stack.bootstrapServers();
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    this.endpoint = "http://127.0.0.1:" + port;
    this.process =
        JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
            .name("cli-test-scheduler")
            .classpath(schedulerClasspath())
            .jvmArg("-Xmx256m")
            .sysProp("micronaut.server.port", String.valueOf(port))
            .sysProp("tasklane.scheduler.bootstrap-servers", bootstrap)
            .sysProp("tasklane.scheduler.namespace", topics.namespace())
            .sysProp("tasklane.scheduler.partitions", "2")
            .sysProp("tasklane.scheduler.state-dir", stateDir.toString())
            .sysProp("tasklane.scheduler.topic-refresh-interval", "500ms")
            .sysProp("tasklane.scheduler.timeout-grace", "1s")
            .sysProp(
                "tasklane.scheduler.api.tokens",
                "viewer-bob:"
                    + viewer
                    + ":viewer,ops-alice:"
                    + operator
                    + ":operator,admin-carol:"
                    + admin
                    + ":admin")
            .sysProp("tasklane.scheduler.inter-instance-token", Secrets.token())
            .start();
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    awaitUp();
  }

  /** The scheduler's own runtime classpath, as the build wrote it (and as bin scripts use it). */
  private static String schedulerClasspath() throws IOException {
    Path target = Path.of("..", "scheduler-streams", "target").toAbsolutePath().normalize();
    return target.resolve("classes")
        + File.pathSeparator
        + Files.readString(target.resolve("app.classpath")).trim();
  }

  private void awaitUp() {
    HttpClient http = HttpClient.newHttpClient();
    await()
        .atMost(Duration.ofSeconds(90))
        .ignoreExceptionsInstanceOf(ConnectException.class)
        .failFast("the scheduler process exited", () -> !process.isAlive())
        .untilAsserted(
            () -> {
              HttpResponse<String> r =
                  http.send(
                      HttpRequest.newBuilder(URI.create(endpoint + "/health")).build(),
                      HttpResponse.BodyHandlers.ofString());
              assertThat(r.body()).as(process.logTail(40)).contains("\"UP\"");
            });
  }

  /** Creates the dispatch topic of {@code handler}, so that its tasks can be dispatched. */
  void createHandlerTopic(String handler) throws Exception {
    try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
      admin
          .createTopics(java.util.List.of(new NewTopic(topics.handler(handler), 1, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  /** A task of {@code handler} due at {@code dueAt} with {@code maxAttempts} and a 1 s timeout. */
  static TaskEnvelope task(String handler, long dueAt, int maxAttempts) {
    return TaskEnvelope.builder()
        .id(UUID.randomUUID().toString())
        .handler(handler)
        .payload(WireCodec.readTree("{\"orderId\":42}"))
        .dueAt(dueAt)
        .maxAttempts(maxAttempts)
        .timeoutMs(1_000)
        .createdAt(System.currentTimeMillis())
        .build();
  }

  /** Writes {@code record} to the namespace's {@code tasks} topic under {@code key}. */
  void send(String key, Object record) throws Exception {
    send(key, record, Map.of());
  }

  /** Writes {@code record} with {@code headers} to the {@code tasks} topic under {@code key}. */
  void send(String key, Object record, Map<String, String> headers) throws Exception {
    sendTo(topics.tasks(), key, WireCodec.encode(record), headers);
  }

  /** Writes {@code value} with {@code headers} to {@code topic} under {@code key}. */
  void sendTo(String topic, String key, byte[] value, Map<String, String> headers)
      throws Exception {
    ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, key, value);
    headers.forEach((k, v) -> r.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
    producer.send(r).get(10, TimeUnit.SECONDS);
  }

  /** A CLI run pointed at this scheduler with {@code token}. */
  CliRun cli(String token) {
    return new CliRun().api(endpoint, token);
  }

  String logTail() {
    return process.logTail(60);
  }

  @Override
  public void close() {
    producer.close();
    process.close();
  }
}
