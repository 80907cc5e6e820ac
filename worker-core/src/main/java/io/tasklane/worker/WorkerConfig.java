package io.tasklane.worker;

import io.tasklane.core.SecretMasker;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Settings of the worker runtime, under {@code tasklane.worker.*}: environment variables, then
 * system properties, then the application's Micronaut configuration, then the defaults
 * (docs/operations.md, Configuration). Build it with {@link #builder()}.
 *
 * @param topics {@code namespace}: topic namespace, default {@value Topics#DEFAULT_NAMESPACE}
 * @param bootstrapServers {@code bootstrap-servers}, else micronaut-kafka's {@code
 *     kafka.bootstrap.servers}; required
 * @param groupId {@code group-id}: consumer group prefix, default {@code <namespace>-worker}; each
 *     handler consumes in group {@code <group-id>.<handler>}
 * @param workerName {@code name}: shown in results and logs, default {@code hostname-pid}
 * @param concurrency {@code concurrency}: default threads per handler, default {@value
 *     #DEFAULT_CONCURRENCY}
 * @param handlerPartitions {@code handler-partitions}: partitions of handler topics this worker
 *     creates, default {@value #DEFAULT_HANDLER_PARTITIONS}
 * @param shutdownGrace {@code shutdown-grace}: how long shutdown waits for in-flight work, default
 *     30 s
 * @param logBytesPerAttempt {@code log-bytes-per-attempt}: cap of log bytes one attempt may
 *     publish, default 1 MiB
 * @param methodCalls {@code method-calls.enabled}: run after-commit method tasks ({@code
 *     tasklane.method}): {@code auto} (default) registers the handler iff a bean of the context has
 *     an {@code @OutboxAsync} method, {@code true} always, {@code false} never
 * @param kafka {@code kafka.*}: extra Kafka client properties for the consumers, the producer and
 *     the admin client (SASL, TLS, timeouts...); the keys in {@link #PROTECTED_KAFKA_KEYS}, which
 *     the delivery guarantees rest on, are refused
 * @param recurringApp {@code recurring.app}: the worker app whose {@code @Recurring} schedules this
 *     is, default the {@code group-id}; the schedules' origin is {@code code:<app>}, and the app's
 *     manifest on {@code <ns>.recurring} decides which schedules it disabled. Two different apps
 *     must not share it
 * @param recurringBuild {@code recurring.build}: an increasing build number of the deployment (e.g.
 *     the CI build), default 0; a start with a lower build than the one that last published the
 *     app's schedules publishes none (docs/schedules.md)
 * @param heartbeatInterval {@code heartbeat-interval}: how often the worker publishes its heartbeat
 *     on {@code <ns>.workers}, default 5 s, 100 ms to 5 min
 * @param sessionTimeout {@code session-timeout}: the handler consumers' group session timeout
 *     ({@code session.timeout.ms}; their {@code heartbeat.interval.ms} is a quarter of it): a
 *     worker that dies without leaving its groups (kill -9, a lost host) holds its partitions, and
 *     so the dispatches in flight on it, this long. Default 6 s, the broker's default lowest
 *     ({@code group.min.session.timeout.ms}), 1 s to 30 min; {@code kafka.session.timeout.ms} and
 *     {@code kafka.heartbeat.interval.ms} win over it, and neither is set with {@code
 *     kafka.group.protocol=consumer}, whose session timeout is the broker's
 * @param replication {@code replication-factor}, {@code min-insync-replicas} and {@code
 *     allow-unsafe-replication} of the topics the worker creates (results, logs, handler topics and
 *     their DLTs, the operator topics); null: {@link TopicReplication#DEFAULT}, which follows the
 *     cluster
 */
public record WorkerConfig(
    Topics topics,
    String bootstrapServers,
    String groupId,
    String workerName,
    int concurrency,
    int handlerPartitions,
    Duration shutdownGrace,
    int logBytesPerAttempt,
    MethodCalls methodCalls,
    Map<String, String> kafka,
    String recurringApp,
    long recurringBuild,
    Duration heartbeatInterval,
    Duration sessionTimeout,
    TopicReplication replication) {
  /** The values of {@code method-calls.enabled}. */
  public enum MethodCalls {
    /** On iff some bean of the context has an {@code @OutboxAsync} method. */
    AUTO,
    ENABLED,
    DISABLED
  }

  /**
   * {@code kafka.*} keys the worker sets itself and refuses to take from configuration: results and
   * dead letters are sent with {@code acks=all} by an idempotent, non-transactional producer;
   * offsets are committed by the worker only after the result's ack; a new consumer group reads
   * from the earliest offset (dispatches already in the topic are not skipped); a poll returns at
   * most {@code max-in-flight} records (the back-pressure window); and records are plain bytes.
   */
  public static final Set<String> PROTECTED_KAFKA_KEYS =
      Set.of(
          "acks",
          "enable.idempotence",
          "transactional.id",
          "enable.auto.commit",
          "auto.offset.reset",
          "group.id",
          "max.poll.records",
          "key.serializer",
          "value.serializer",
          "key.deserializer",
          "value.deserializer");

  public static final String PREFIX = "tasklane.worker";
  public static final int DEFAULT_CONCURRENCY = 4;
  public static final int DEFAULT_HANDLER_PARTITIONS = 6;
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);
  public static final int DEFAULT_LOG_BYTES_PER_ATTEMPT = 1 << 20;
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(5);
  public static final Duration MIN_HEARTBEAT_INTERVAL = Duration.ofMillis(100);
  public static final Duration MAX_HEARTBEAT_INTERVAL = Duration.ofMinutes(5);
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(6);
  public static final Duration MIN_SESSION_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration MAX_SESSION_TIMEOUT = Duration.ofMinutes(30);

  /** The rule for {@code recurring.app}. */
  public static final Pattern RECURRING_APP = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  public WorkerConfig {
    Objects.requireNonNull(topics, "namespace");
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new WorkerException(
          PREFIX + ".bootstrap-servers (or kafka.bootstrap.servers) is required");
    }
    if (groupId == null || groupId.isBlank()) {
      throw new WorkerException(PREFIX + ".group-id must not be blank");
    }
    if (workerName == null || workerName.isBlank()) {
      throw new WorkerException(PREFIX + ".name must not be blank");
    }
    if (concurrency < 1 || concurrency > HandlerConfig.MAX_CONCURRENCY) {
      throw new WorkerException(PREFIX + ".concurrency must be 1 to 1000, was " + concurrency);
    }
    if (handlerPartitions < 1 || handlerPartitions > 10_000) {
      throw new WorkerException(
          PREFIX + ".handler-partitions must be 1 to 10000, was " + handlerPartitions);
    }
    if (shutdownGrace == null || shutdownGrace.isNegative()) {
      throw new WorkerException(PREFIX + ".shutdown-grace must be ≥ 0, was " + shutdownGrace);
    }
    if (logBytesPerAttempt < 0) {
      throw new WorkerException(
          PREFIX + ".log-bytes-per-attempt must be ≥ 0, was " + logBytesPerAttempt);
    }
    Objects.requireNonNull(methodCalls, "method-calls.enabled");
    recurringApp = recurringApp == null ? groupId : recurringApp;
    if (!RECURRING_APP.matcher(recurringApp).matches()) {
      throw new WorkerException(
          PREFIX
              + ".recurring.app must match "
              + RECURRING_APP.pattern()
              + " (1 to 100 characters), was '"
              + recurringApp
              + "'");
    }
    if (recurringBuild < 0) {
      throw new WorkerException(PREFIX + ".recurring.build must be ≥ 0, was " + recurringBuild);
    }
    if (heartbeatInterval == null
        || heartbeatInterval.compareTo(MIN_HEARTBEAT_INTERVAL) < 0
        || heartbeatInterval.compareTo(MAX_HEARTBEAT_INTERVAL) > 0) {
      throw new WorkerException(
          PREFIX + ".heartbeat-interval must be 100ms to 5m, was " + heartbeatInterval);
    }
    if (sessionTimeout == null
        || sessionTimeout.compareTo(MIN_SESSION_TIMEOUT) < 0
        || sessionTimeout.compareTo(MAX_SESSION_TIMEOUT) > 0) {
      throw new WorkerException(
          PREFIX + ".session-timeout must be 1s to 30m, was " + sessionTimeout);
    }
    replication = replication == null ? TopicReplication.DEFAULT : replication;
    kafka = kafka == null ? Map.of() : Map.copyOf(kafka);
    for (String key : new TreeSet<>(kafka.keySet())) {
      if (PROTECTED_KAFKA_KEYS.contains(key)) {
        throw new WorkerException(
            PREFIX
                + ".kafka."
                + key
                + " cannot be set: the worker sets it itself and its at-least-once delivery"
                + " depends on it (refused: "
                + String.join(", ", new TreeSet<>(PROTECTED_KAFKA_KEYS))
                + ")");
      }
    }
  }

  /** A builder with every setting unset: the defaults apply. */
  public static WorkerConfigBuilder builder() {
    return new WorkerConfigBuilder();
  }

  /** For logs: every secret-like {@code kafka.*} value (SASL JAAS, keystore passwords) masked. */
  @Override
  public String toString() {
    return "WorkerConfig[namespace="
        + topics.namespace()
        + ", bootstrapServers="
        + SecretMasker.maskText(bootstrapServers)
        + ", groupId="
        + groupId
        + ", workerName="
        + workerName
        + ", concurrency="
        + concurrency
        + ", handlerPartitions="
        + handlerPartitions
        + ", shutdownGrace="
        + shutdownGrace
        + ", logBytesPerAttempt="
        + logBytesPerAttempt
        + ", methodCalls="
        + methodCalls
        + ", kafka="
        + SecretMasker.mask(kafka)
        + ", recurringApp="
        + recurringApp
        + ", recurringBuild="
        + recurringBuild
        + ", heartbeatInterval="
        + heartbeatInterval
        + ", sessionTimeout="
        + sessionTimeout
        + "]";
  }
}
