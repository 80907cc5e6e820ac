package io.tasklane.scheduler;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Helpers for the tests on the real broker. */
final class StackSupport {
  static final String VIEWER = Tokens.random();
  static final String OPERATOR = Tokens.random();
  static final String ADMIN = Tokens.random();

  /** Shared by every scheduler a test starts, so that forwarded status reads are accepted. */
  static final String INTER_INSTANCE = Tokens.random();

  static final HttpClient HTTP = HttpClient.newHttpClient();

  private StackSupport() {}

  /**
   * The settings of an embedded scheduler instance named {@code name} on {@code stack}: any HTTP
   * port, {@code partitions} partitions, its state under {@code stateDir}, the shared
   * inter-instance token and a 6 s session; a test adds its API tokens and the rest.
   */
  static Map<String, Object> instanceConfig(
      LocalStack stack, Topics topics, Path stateDir, String name, int partitions) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", partitions);
    p.put("tasklane.scheduler.state-dir", stateDir.resolve(name).toString());
    p.put("tasklane.scheduler.inter-instance-token", INTER_INSTANCE);
    p.put("tasklane.scheduler.kafka.session.timeout.ms", "6000");
    p.put("tasklane.scheduler.kafka.heartbeat.interval.ms", "1000");
    return p;
  }

  /**
   * One instance on 2 partitions with the three role tokens {@code viewer-bob} ({@link #VIEWER}),
   * {@code ops-alice} ({@link #OPERATOR}) and {@code root-carol} ({@code admin}), and {@code
   * redacted} as the sensitive fields of {@code handler}.
   */
  static Map<String, Object> rolesConfig(
      String bootstrap,
      Topics topics,
      Path stateDir,
      String admin,
      String handler,
      String redacted) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", bootstrap);
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 2);
    p.put("tasklane.scheduler.state-dir", stateDir.toString());
    p.put("tasklane.scheduler.topic-refresh-interval", "500ms");
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:"
            + VIEWER
            + ":viewer,ops-alice:"
            + OPERATOR
            + ":operator,root-carol:"
            + admin
            + ":admin");
    p.put("tasklane.scheduler.api.redact." + handler, redacted);
    return p;
  }

  static Topics uniqueTopics() {
    return new Topics("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
  }

  static void createTopics(String bootstrap, Map<String, Integer> partitions) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin
          .createTopics(
              partitions.entrySet().stream()
                  .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1))
                  .toList())
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  static KafkaProducer<String, byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  static TaskEnvelope task(String handler, long dueAt) {
    return task(handler, dueAt, null);
  }

  /** A task with an ordering key: its routing key (and so its partition) is not its id's. */
  static TaskEnvelope task(String handler, long dueAt, String orderingKey) {
    return TaskEnvelope.builder()
        .id(UUID.randomUUID().toString())
        .handler(handler)
        .orderingKey(orderingKey)
        .payload(WireCodec.readTree("{}"))
        .dueAt(dueAt)
        .maxAttempts(5)
        .timeoutMs(5_000)
        .createdAt(System.currentTimeMillis())
        .build();
  }

  static void send(KafkaProducer<String, byte[]> producer, Topics topics, TaskEnvelope task)
      throws Exception {
    producer
        .send(new ProducerRecord<>(topics.tasks(), task.routingKey(), WireCodec.encode(task)))
        .get(10, TimeUnit.SECONDS);
  }

  /** Every record of {@code topic} from the beginning, once at least {@code min} are there. */
  static List<ConsumerRecord<String, byte[]>> readAll(String bootstrap, String topic, int min) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> c =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (out.size() < min && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(out::add);
      }
      c.poll(Duration.ofMillis(500)).forEach(out::add); // and whatever follows at once
    }
    return out;
  }

  static HttpResponse<String> get(int port, String path, String token) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(r.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A request with {@code method} and a JSON {@code body} (null: none). */
  static HttpResponse<String> send(int port, String method, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    r.header("Content-Type", "application/json");
    return HTTP.send(
        r.method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The most powerful API role (a token of it may call every endpoint). */
  static String topRole() {
    SchedulerConfig.Role[] roles = SchedulerConfig.Role.values();
    return roles[roles.length - 1].name().toLowerCase(java.util.Locale.ROOT);
  }

  static HttpResponse<String> post(int port, String path, String token) throws Exception {
    return post(port, path, token, HttpRequest.BodyPublishers.noBody());
  }

  /** A POST of the JSON {@code body}. */
  static HttpResponse<String> post(int port, String path, String token, String body)
      throws Exception {
    return post(port, path, token, HttpRequest.BodyPublishers.ofString(body));
  }

  private static HttpResponse<String> post(
      int port, String path, String token, HttpRequest.BodyPublisher body) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    r.header("Content-Type", "application/json");
    return HTTP.send(r.POST(body).build(), HttpResponse.BodyHandlers.ofString());
  }
}
