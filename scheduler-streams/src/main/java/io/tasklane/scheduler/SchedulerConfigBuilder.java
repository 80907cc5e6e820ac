package io.tasklane.scheduler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Builds a {@link SchedulerConfig}: unset settings take their defaults. Single-threaded. */
public final class SchedulerConfigBuilder {
  private String bootstrapServers;
  private String namespace;
  private String applicationId;
  private int partitions = SchedulerConfig.DEFAULT_PARTITIONS;
  private Duration punctuationInterval;
  private int scanBound = SchedulerConfig.DEFAULT_SCAN_BOUND;
  private ProcessingGuarantee processingGuarantee;
  private Duration commitInterval;
  private int numStandbyReplicas = SchedulerConfig.DEFAULT_NUM_STANDBY_REPLICAS;
  private Path stateDir;
  private Duration retention;
  private int snoozeCap = SchedulerConfig.DEFAULT_SNOOZE_CAP;
  private Duration timeoutGrace;
  private int maxDispatched = SchedulerConfig.DEFAULT_MAX_DISPATCHED;
  private Duration topicRefreshInterval;
  private String advertisedHost;
  private Map<String, String> kafka = Map.of();
  private List<ApiToken> apiTokens = List.of();
  private int maxWaitersPerTask = SchedulerConfig.DEFAULT_MAX_WAITERS_PER_TASK;
  private String interInstanceToken;
  private ApiSettings api;
  private String workerGroupPrefix;
  private int workerLostHeartbeats = SchedulerConfig.DEFAULT_WORKER_LOST_HEARTBEATS;
  private int searchScanBound = SchedulerConfig.DEFAULT_SEARCH_SCAN_BOUND;
  private int logLinesPerTask = SchedulerConfig.DEFAULT_LOG_LINES_PER_TASK;
  private int logBytesPerTask = SchedulerConfig.DEFAULT_LOG_BYTES_PER_TASK;
  private int storeMemoryMb = SchedulerConfig.DEFAULT_STORE_MEMORY_MB;
  private Duration scheduleLead;
  private io.tasklane.core.TopicReplication replication;
  private TrustStore interInstanceTrustStore;
  private Map<String, HandlerDefaults> handlers;
  private Map<String, RateLimit> limits;
  private boolean adaptiveWindow = true;
  private Duration priorityAging;
  private AlertConfig alerts;

  SchedulerConfigBuilder() {}

  /** Sets bootstrapServers: Kafka bootstrap servers (required). */
  public SchedulerConfigBuilder bootstrapServers(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
    return this;
  }

  /** Sets namespace: the topic namespace. */
  public SchedulerConfigBuilder namespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  /** Sets applicationId: the Kafka Streams application id. */
  public SchedulerConfigBuilder applicationId(String applicationId) {
    this.applicationId = applicationId;
    return this;
  }

  /** Sets partitions: partitions of the topics the scheduler creates. */
  public SchedulerConfigBuilder partitions(int partitions) {
    this.partitions = partitions;
    return this;
  }

  /** Sets punctuationInterval: how often the due-index is scanned. */
  public SchedulerConfigBuilder punctuationInterval(Duration punctuationInterval) {
    this.punctuationInterval = punctuationInterval;
    return this;
  }

  /** Sets scanBound: the most due-index entries one scan handles. */
  public SchedulerConfigBuilder scanBound(int scanBound) {
    this.scanBound = scanBound;
    return this;
  }

  /** Sets commitInterval: {@code commit.interval.ms}; null: by the processing guarantee. */
  public SchedulerConfigBuilder commitInterval(Duration commitInterval) {
    this.commitInterval = commitInterval;
    return this;
  }

  /** Sets processingGuarantee: the processing guarantee. */
  public SchedulerConfigBuilder processingGuarantee(ProcessingGuarantee processingGuarantee) {
    this.processingGuarantee = processingGuarantee;
    return this;
  }

  /** Sets numStandbyReplicas: warm standby copies of each store. */
  public SchedulerConfigBuilder numStandbyReplicas(int numStandbyReplicas) {
    this.numStandbyReplicas = numStandbyReplicas;
    return this;
  }

  /** Sets stateDir: where RocksDB keeps the stores. */
  public SchedulerConfigBuilder stateDir(Path stateDir) {
    this.stateDir = stateDir;
    return this;
  }

  /** Sets retention: how long finished tasks stay queryable. */
  public SchedulerConfigBuilder retention(Duration retention) {
    this.retention = retention;
    return this;
  }

  /** Sets snoozeCap: the most RETRY_LATER answers per task. */
  public SchedulerConfigBuilder snoozeCap(int snoozeCap) {
    this.snoozeCap = snoozeCap;
    return this;
  }

  /** Sets timeoutGrace: added to a task's timeout to get its attempt's deadline. */
  public SchedulerConfigBuilder timeoutGrace(Duration timeoutGrace) {
    this.timeoutGrace = timeoutGrace;
    return this;
  }

  /** Sets maxDispatched: the most attempts of one handler out per partition. */
  public SchedulerConfigBuilder maxDispatched(int maxDispatched) {
    this.maxDispatched = maxDispatched;
    return this;
  }

  /** Sets topicRefreshInterval: how often the handler topics are listed. */
  public SchedulerConfigBuilder topicRefreshInterval(Duration topicRefreshInterval) {
    this.topicRefreshInterval = topicRefreshInterval;
    return this;
  }

  /** Sets advertisedHost: the host other instances reach this one at; null: detected. */
  public SchedulerConfigBuilder advertisedHost(String advertisedHost) {
    this.advertisedHost = advertisedHost;
    return this;
  }

  /** Sets kafka: pass-through Kafka and Streams settings. */
  public SchedulerConfigBuilder kafka(Map<String, String> kafka) {
    this.kafka = kafka;
    return this;
  }

  /** Sets apiTokens: the named bearer tokens (at least one). */
  public SchedulerConfigBuilder apiTokens(List<ApiToken> apiTokens) {
    this.apiTokens = apiTokens;
    return this;
  }

  /** Sets maxWaitersPerTask: the most tasks that may wait on one task. */
  public SchedulerConfigBuilder maxWaitersPerTask(int maxWaitersPerTask) {
    this.maxWaitersPerTask = maxWaitersPerTask;
    return this;
  }

  /** Sets workerLostHeartbeats: missed heartbeat intervals after which a worker is lost. */
  public SchedulerConfigBuilder workerLostHeartbeats(int workerLostHeartbeats) {
    this.workerLostHeartbeats = workerLostHeartbeats;
    return this;
  }

  /** Sets interInstanceToken: the credential instances send each other; null: generated. */
  public SchedulerConfigBuilder interInstanceToken(String interInstanceToken) {
    this.interInstanceToken = interInstanceToken;
    return this;
  }

  /** Sets api: redaction, audit retention and browser sessions; null: the defaults. */
  public SchedulerConfigBuilder api(ApiSettings api) {
    this.api = api;
    return this;
  }

  /** Sets workerGroupPrefix: the workers' {@code group-id}; null: {@code <ns>-worker}. */
  public SchedulerConfigBuilder workerGroupPrefix(String workerGroupPrefix) {
    this.workerGroupPrefix = workerGroupPrefix;
    return this;
  }

  /** Sets searchScanBound: the most index entries one instance reads for one search page. */
  public SchedulerConfigBuilder searchScanBound(int searchScanBound) {
    this.searchScanBound = searchScanBound;
    return this;
  }

  /** Sets logLinesPerTask: the most handler log lines kept per task. */
  public SchedulerConfigBuilder logLinesPerTask(int logLinesPerTask) {
    this.logLinesPerTask = logLinesPerTask;
    return this;
  }

  /** Sets scheduleLead: how long before its instant an {@code ALLOW} schedule's fire is made. */
  public SchedulerConfigBuilder scheduleLead(Duration scheduleLead) {
    this.scheduleLead = scheduleLead;
    return this;
  }

  /** Sets storeMemoryMb: the off-heap memory all RocksDB stores of the instance share. */
  public SchedulerConfigBuilder storeMemoryMb(int storeMemoryMb) {
    this.storeMemoryMb = storeMemoryMb;
    return this;
  }

  /** Sets logBytesPerTask: the most bytes of log messages kept per task. */
  public SchedulerConfigBuilder logBytesPerTask(int logBytesPerTask) {
    this.logBytesPerTask = logBytesPerTask;
    return this;
  }

  /** Sets adaptiveWindow: size each handler's window of attempts out from its results. */
  public SchedulerConfigBuilder adaptiveWindow(boolean adaptiveWindow) {
    this.adaptiveWindow = adaptiveWindow;
    return this;
  }

  /** Sets priorityAging: how long a low-priority task may be held back; null: 5 min. */
  public SchedulerConfigBuilder priorityAging(Duration priorityAging) {
    this.priorityAging = priorityAging;
    return this;
  }

  /** Sets handlers: the configured lane settings per handler name; null: none. */
  public SchedulerConfigBuilder handlers(Map<String, HandlerDefaults> handlers) {
    this.handlers = handlers;
    return this;
  }

  /** Sets limits: the named rate limits tasks may name; null: none. */
  public SchedulerConfigBuilder limits(Map<String, RateLimit> limits) {
    this.limits = limits;
    return this;
  }

  /** Sets interInstanceTrustStore: trusted by forwarded reads over HTTPS; null: the JVM's. */
  public SchedulerConfigBuilder interInstanceTrustStore(TrustStore trustStore) {
    this.interInstanceTrustStore = trustStore;
    return this;
  }

  /** Sets replication: of the topics the scheduler creates; null follows the cluster. */
  public SchedulerConfigBuilder replication(io.tasklane.core.TopicReplication replication) {
    this.replication = replication;
    return this;
  }

  /** Sets alerts: the alert rules and their webhook; null: none. */
  public SchedulerConfigBuilder alerts(AlertConfig alerts) {
    this.alerts = alerts;
    return this;
  }

  /** The validated configuration; a {@link SchedulerException} names a bad setting. */
  public SchedulerConfig build() {
    return new SchedulerConfig(
        bootstrapServers,
        namespace,
        applicationId,
        partitions,
        punctuationInterval,
        scanBound,
        processingGuarantee,
        commitInterval,
        numStandbyReplicas,
        stateDir,
        retention,
        snoozeCap,
        timeoutGrace,
        maxDispatched,
        topicRefreshInterval,
        advertisedHost,
        kafka,
        apiTokens,
        maxWaitersPerTask,
        interInstanceToken,
        api,
        workerGroupPrefix,
        workerLostHeartbeats,
        searchScanBound,
        logLinesPerTask,
        logBytesPerTask,
        alerts,
        storeMemoryMb,
        scheduleLead,
        replication,
        interInstanceTrustStore,
        handlers,
        limits,
        adaptiveWindow,
        priorityAging);
  }
}
