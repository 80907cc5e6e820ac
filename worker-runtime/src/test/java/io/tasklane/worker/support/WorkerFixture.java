package io.tasklane.worker.support;

import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One test class's world: its own topic namespace and database on the shared stack, a producer of
 * dispatches, readers of the results, logs and dead-letter topics, and worker contexts.
 */
public final class WorkerFixture implements AutoCloseable {
  public final LocalStack stack;
  public final Topics topics;
  public final String database;
  public final String jdbcUrl;
  private final String suite;
  private final KafkaProducer<byte[], byte[]> producer;
  private final TopicReader results;
  private final TopicReader logs;
  private final Map<String, TopicReader> dlts = new HashMap<>();
  private final List<ApplicationContext> contexts = new ArrayList<>();

  public WorkerFixture(LocalStack stack, String suite, List<String> handlers) {
    this.stack = stack;
    this.suite = suite;
    String unique = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    this.topics = new Topics("t" + unique);
    this.database = "w_" + unique;
    this.jdbcUrl = stack.createDatabase(database);
    List<TopicAdmin.Spec> specs = new ArrayList<>();
    specs.add(TopicAdmin.Spec.of(topics.results(), 3));
    specs.add(TopicAdmin.Spec.of(topics.logs(), 3));
    for (String h : handlers) {
      specs.add(TopicAdmin.Spec.of(topics.handler(h), 3));
      specs.add(TopicAdmin.Spec.of(topics.handlerDlt(h), 3));
    }
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      TopicAdmin.ensure(admin, specs);
    }
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG,
                0),
            new ByteArraySerializer(),
            new ByteArraySerializer());
    results = new TopicReader(stack.bootstrapServers(), topics.results());
    logs = new TopicReader(stack.bootstrapServers(), topics.logs());
    for (String h : handlers) {
      dlts.put(h, new TopicReader(stack.bootstrapServers(), topics.handlerDlt(h)));
    }
  }

  /** Properties of a worker context of this fixture (the caller's win). */
  public Map<String, Object> properties(Map<String, Object> extra) {
    Map<String, Object> p = new HashMap<>();
    p.put("test.suite", suite);
    p.put("test.jdbc.url", jdbcUrl);
    p.put("test.jdbc.user", stack.username());
    p.put("test.jdbc.password", stack.password());
    p.put("tasklane.worker.namespace", topics.namespace());
    p.put("tasklane.worker.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.worker.name", "test-worker");
    p.put("tasklane.worker.handler-partitions", 3);
    p.put("tasklane.worker.kafka.session.timeout.ms", "6000");
    p.put("tasklane.worker.kafka.heartbeat.interval.ms", "1000");
    p.putAll(extra);
    return p;
  }

  public ApplicationContext start(Map<String, Object> extra) {
    ApplicationContext ctx = ApplicationContext.run(properties(extra));
    contexts.add(ctx);
    return ctx;
  }

  public void send(Dispatch d) {
    send(d.task().handler(), d.routingKey().getBytes(StandardCharsets.UTF_8), WireCodec.encode(d));
  }

  /**
   * Sends {@code d} as the scheduler does, with its priority as a record header when its task's is
   * not the default ({@link io.tasklane.core.DispatchPriority}).
   */
  public void sendAsScheduled(Dispatch d) {
    ProducerRecord<byte[], byte[]> r =
        new ProducerRecord<>(
            topics.handler(d.task().handler()),
            d.routingKey().getBytes(StandardCharsets.UTF_8),
            WireCodec.encode(d));
    byte[] priority = io.tasklane.core.DispatchPriority.headerValue(d.task());
    if (priority != null) {
      r.headers().add(io.tasklane.core.ReservedHeaders.DISPATCH_PRIORITY, priority);
    }
    try {
      producer.send(r).get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("send failed", e);
    }
  }

  /** Sends without waiting; {@link #flush()} waits for every send. */
  public void sendAsync(Dispatch d) {
    producer.send(
        new ProducerRecord<>(
            topics.handler(d.task().handler()),
            d.routingKey().getBytes(StandardCharsets.UTF_8),
            WireCodec.encode(d)));
  }

  public void flush() {
    producer.flush();
  }

  public void send(String handler, byte[] key, byte[] value) {
    try {
      producer
          .send(new ProducerRecord<>(topics.handler(handler), key, value))
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("send failed", e);
    }
  }

  public List<TaskResult> results(String id) {
    List<TaskResult> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : results.records()) {
      TaskResult result = WireCodec.decodeResult(r.value());
      if (result.id().equals(id)) {
        out.add(result);
      }
    }
    return out;
  }

  public int resultCount() {
    return results.records().size();
  }

  public TaskResult awaitResult(String id) {
    return awaitResult(id, Duration.ofSeconds(30));
  }

  public TaskResult awaitResult(String id, Duration within) {
    await().atMost(within).pollInterval(Duration.ofMillis(20)).until(() -> !results(id).isEmpty());
    return results(id).get(0);
  }

  public List<ConsumerRecord<byte[], byte[]>> logs() {
    return logs.records();
  }

  public List<ConsumerRecord<byte[], byte[]>> deadLetters(String handler) {
    return dlts.get(handler).records();
  }

  public Connection connection() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
  }

  public void sql(String statement) throws SQLException {
    try (Connection c = connection();
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  public long count(String query, String arg) throws SQLException {
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(query)) {
      if (arg != null) {
        ps.setString(1, arg);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Stops a context this fixture started (graceful shutdown). */
  public void stop(ApplicationContext ctx) {
    contexts.remove(ctx);
    ctx.close();
  }

  @Override
  public void close() throws Exception {
    for (ApplicationContext ctx : contexts) {
      ctx.close();
    }
    contexts.clear();
    results.close();
    logs.close();
    for (TopicReader r : dlts.values()) {
      r.close();
    }
    producer.close(Duration.ofSeconds(5));
  }
}
