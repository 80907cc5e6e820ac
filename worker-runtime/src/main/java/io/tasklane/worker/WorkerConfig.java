package io.tasklane.worker;

import io.tasklane.core.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of the worker runtime, under {@code tasklane.worker.*} (Micronaut properties).
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
 * @param methodCalls {@code method-calls.enabled}: run after-commit method tasks, default true
 * @param kafka {@code kafka.*}: extra Kafka client properties for consumers and the producer
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
    boolean methodCalls,
    Map<String, String> kafka) {
  public static final String PREFIX = "tasklane.worker";
  public static final int DEFAULT_CONCURRENCY = 4;
  public static final int DEFAULT_HANDLER_PARTITIONS = 6;
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);
  public static final int DEFAULT_LOG_BYTES_PER_ATTEMPT = 1 << 20;

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
    kafka = kafka == null ? Map.of() : Map.copyOf(kafka);
  }
}
