package io.tasklane.spring;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The worker's {@code tasklane.worker.*} settings, declared for Spring Boot's configuration
 * metadata (IDE completion and documentation). The values the worker runs with are read from the
 * Spring {@code Environment} by the same reader as on Micronaut, which validates them and refuses
 * unknown keys under {@code tasklane.worker.}; this class only describes them. Durations are
 * written as {@code 30s}, {@code 500ms} or ISO-8601 ({@code PT30S}). Bound once at start-up.
 */
@ConfigurationProperties(prefix = "tasklane.worker")
public class TasklaneWorkerProperties {
  /** Whether the worker runs (it also needs at least one handler bean). */
  private boolean enabled = true;

  /** Topic namespace shared with the relay and the scheduler. */
  private String namespace;

  /** Kafka bootstrap servers; {@code spring.kafka.bootstrap-servers} when unset. */
  private String bootstrapServers;

  /** Consumer group id of the handler consumers. */
  private String groupId;

  /** This worker's name, in results and heartbeats. */
  private String name;

  /** Default number of threads running attempts, per handler. */
  private Integer concurrency;

  /** Partitions of the handler topics the worker creates. */
  private Integer handlerPartitions;

  /** How long the worker drains running attempts when the application stops. */
  private String shutdownGrace;

  /** Bytes of task log kept per attempt. */
  private Integer logBytesPerAttempt;

  /** Interval of the worker's heartbeats. */
  private String heartbeatInterval;

  /** Kafka consumer session timeout. */
  private String sessionTimeout;

  /**
   * Kafka client properties passed through (e.g. {@code tasklane.worker.kafka.security.protocol}).
   */
  private Map<String, String> kafka = new LinkedHashMap<>();

  /**
   * Per handler: {@code enabled}, {@code concurrency}, {@code max-in-flight}, {@code timeout},
   * {@code partitions}.
   */
  private Map<String, Map<String, String>> handlers = new LinkedHashMap<>();

  /** Replication factor of the topics the worker creates. */
  private Integer replicationFactor;

  /** {@code min.insync.replicas} of the topics the worker creates. */
  private Integer minInsyncReplicas;

  /** Allows a replication below the safe minimum (development only). */
  private Boolean allowUnsafeReplication;

  private final Idempotency idempotency = new Idempotency();

  private final MethodCalls methodCalls = new MethodCalls();

  private final RecurringSettings recurring = new RecurringSettings();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getBootstrapServers() {
    return bootstrapServers;
  }

  public void setBootstrapServers(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
  }

  public String getGroupId() {
    return groupId;
  }

  public void setGroupId(String groupId) {
    this.groupId = groupId;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Integer getConcurrency() {
    return concurrency;
  }

  public void setConcurrency(Integer concurrency) {
    this.concurrency = concurrency;
  }

  public Integer getHandlerPartitions() {
    return handlerPartitions;
  }

  public void setHandlerPartitions(Integer handlerPartitions) {
    this.handlerPartitions = handlerPartitions;
  }

  public String getShutdownGrace() {
    return shutdownGrace;
  }

  public void setShutdownGrace(String shutdownGrace) {
    this.shutdownGrace = shutdownGrace;
  }

  public Integer getLogBytesPerAttempt() {
    return logBytesPerAttempt;
  }

  public void setLogBytesPerAttempt(Integer logBytesPerAttempt) {
    this.logBytesPerAttempt = logBytesPerAttempt;
  }

  public String getHeartbeatInterval() {
    return heartbeatInterval;
  }

  public void setHeartbeatInterval(String heartbeatInterval) {
    this.heartbeatInterval = heartbeatInterval;
  }

  public String getSessionTimeout() {
    return sessionTimeout;
  }

  public void setSessionTimeout(String sessionTimeout) {
    this.sessionTimeout = sessionTimeout;
  }

  public Map<String, String> getKafka() {
    return kafka;
  }

  public void setKafka(Map<String, String> kafka) {
    this.kafka = kafka;
  }

  public Map<String, Map<String, String>> getHandlers() {
    return handlers;
  }

  public void setHandlers(Map<String, Map<String, String>> handlers) {
    this.handlers = handlers;
  }

  public Idempotency getIdempotency() {
    return idempotency;
  }

  public Integer getReplicationFactor() {
    return replicationFactor;
  }

  public void setReplicationFactor(Integer replicationFactor) {
    this.replicationFactor = replicationFactor;
  }

  public Integer getMinInsyncReplicas() {
    return minInsyncReplicas;
  }

  public void setMinInsyncReplicas(Integer minInsyncReplicas) {
    this.minInsyncReplicas = minInsyncReplicas;
  }

  public Boolean getAllowUnsafeReplication() {
    return allowUnsafeReplication;
  }

  public void setAllowUnsafeReplication(Boolean allowUnsafeReplication) {
    this.allowUnsafeReplication = allowUnsafeReplication;
  }

  public MethodCalls getMethodCalls() {
    return methodCalls;
  }

  public RecurringSettings getRecurring() {
    return recurring;
  }

  /** {@code tasklane.worker.method-calls.*}. */
  public static class MethodCalls {
    /** {@code auto}, {@code true} or {@code false}: whether {@code @OutboxAsync} calls are run. */
    private String enabled;

    public String getEnabled() {
      return enabled;
    }

    public void setEnabled(String enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code tasklane.worker.recurring.*}. */
  public static class RecurringSettings {
    /** The application name owning the {@code @Recurring} schedules this worker publishes. */
    private String app;

    /** Build number of the published schedules; a higher build supersedes a lower one. */
    private Long build;

    public String getApp() {
      return app;
    }

    public void setApp(String app) {
      this.app = app;
    }

    public Long getBuild() {
      return build;
    }

    public void setBuild(Long build) {
      this.build = build;
    }
  }

  /** {@code tasklane.worker.idempotency.*}. */
  public static class Idempotency {
    /** Whether handlers' effects are made exactly-once with the JDBC idempotency store. */
    private boolean enabled = true;

    /** Whether the store creates its table {@code tasklane_processed} at start-up. */
    private boolean createTable = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isCreateTable() {
      return createTable;
    }

    public void setCreateTable(boolean createTable) {
      this.createTable = createTable;
    }
  }
}
