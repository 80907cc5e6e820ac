package io.tasklane.worker;

import io.tasklane.core.Topics;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a {@link WorkerConfig} setting by setting; every setting left unset takes its default, and
 * {@link #build()} validates them all. Not thread-safe; use it on one thread.
 */
public final class WorkerConfigBuilder {
  private Topics topics = new Topics(Topics.DEFAULT_NAMESPACE);
  private String bootstrapServers;
  private String groupId;
  private String workerName;
  private int concurrency = WorkerConfig.DEFAULT_CONCURRENCY;
  private int handlerPartitions = WorkerConfig.DEFAULT_HANDLER_PARTITIONS;
  private Duration shutdownGrace = WorkerConfig.DEFAULT_SHUTDOWN_GRACE;
  private int logBytesPerAttempt = WorkerConfig.DEFAULT_LOG_BYTES_PER_ATTEMPT;
  private WorkerConfig.MethodCalls methodCalls = WorkerConfig.MethodCalls.AUTO;
  private Map<String, String> kafka = Map.of();
  private String recurringApp;
  private long recurringBuild;
  private Duration heartbeatInterval = WorkerConfig.DEFAULT_HEARTBEAT_INTERVAL;
  private Duration sessionTimeout = WorkerConfig.DEFAULT_SESSION_TIMEOUT;
  private io.tasklane.core.TopicReplication replication;

  WorkerConfigBuilder() {}

  /** Sets topics: the topic namespace. */
  public WorkerConfigBuilder topics(Topics topics) {
    this.topics = topics;
    return this;
  }

  /** Sets bootstrapServers: Kafka bootstrap servers (required). */
  public WorkerConfigBuilder bootstrapServers(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
    return this;
  }

  /** Sets groupId: consumer group prefix; null: {@code <namespace>-worker}. */
  public WorkerConfigBuilder groupId(String groupId) {
    this.groupId = groupId;
    return this;
  }

  /** Sets workerName: shown in results and logs; null: {@code hostname-pid}. */
  public WorkerConfigBuilder workerName(String workerName) {
    this.workerName = workerName;
    return this;
  }

  /** Sets concurrency: default threads per handler. */
  public WorkerConfigBuilder concurrency(int concurrency) {
    this.concurrency = concurrency;
    return this;
  }

  /** Sets handlerPartitions: partitions of the handler topics this worker creates. */
  public WorkerConfigBuilder handlerPartitions(int handlerPartitions) {
    this.handlerPartitions = handlerPartitions;
    return this;
  }

  /** Sets shutdownGrace: how long shutdown waits for in-flight work. */
  public WorkerConfigBuilder shutdownGrace(Duration shutdownGrace) {
    this.shutdownGrace = shutdownGrace;
    return this;
  }

  /** Sets logBytesPerAttempt: cap of log bytes one attempt may publish. */
  public WorkerConfigBuilder logBytesPerAttempt(int logBytesPerAttempt) {
    this.logBytesPerAttempt = logBytesPerAttempt;
    return this;
  }

  /** Sets methodCalls: whether after-commit method tasks run. */
  public WorkerConfigBuilder methodCalls(WorkerConfig.MethodCalls methodCalls) {
    this.methodCalls = methodCalls;
    return this;
  }

  /** Sets kafka: extra Kafka client properties. */
  public WorkerConfigBuilder kafka(Map<String, String> kafka) {
    this.kafka = kafka;
    return this;
  }

  /**
   * {@code recurring.app}: the worker app of the {@code @Recurring} schedules (default group-id).
   */
  public WorkerConfigBuilder recurringApp(String recurringApp) {
    this.recurringApp = recurringApp;
    return this;
  }

  /** {@code recurring.build}: the deployment's increasing build number (default 0). */
  public WorkerConfigBuilder recurringBuild(long recurringBuild) {
    this.recurringBuild = recurringBuild;
    return this;
  }

  /** {@code heartbeat-interval}: how often the heartbeat goes to {@code <ns>.workers}. */
  public WorkerConfigBuilder heartbeatInterval(Duration heartbeatInterval) {
    this.heartbeatInterval = heartbeatInterval;
    return this;
  }

  /**
   * {@code session-timeout}: how long the broker waits for a handler consumer's heartbeat before it
   * moves the consumer's partitions to the other workers.
   */
  public WorkerConfigBuilder sessionTimeout(Duration sessionTimeout) {
    this.sessionTimeout = sessionTimeout;
    return this;
  }

  /** {@code replication-factor} and friends: of the topics the worker creates; null: follow. */
  public WorkerConfigBuilder replication(io.tasklane.core.TopicReplication replication) {
    this.replication = replication;
    return this;
  }

  /**
   * The validated configuration.
   *
   * @throws WorkerException naming the first setting that is missing or out of range
   */
  public WorkerConfig build() {
    return new WorkerConfig(
        topics,
        bootstrapServers,
        groupId == null ? topics.namespace() + "-worker" : groupId,
        workerName == null ? defaultName() : workerName,
        concurrency,
        handlerPartitions,
        shutdownGrace,
        logBytesPerAttempt,
        methodCalls,
        kafka,
        recurringApp,
        recurringBuild,
        heartbeatInterval,
        sessionTimeout,
        replication);
  }

  private static String defaultName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      host = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("worker");
    }
    return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
  }
}
