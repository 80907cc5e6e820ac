package io.tasklane.scheduler;

import io.tasklane.core.TopicAdmin;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler's configuration, read from {@code tasklane.scheduler.*} (kebab-case keys: {@code
 * bootstrap-servers}, {@code punctuation-interval}, ...; environment, then system properties, then
 * the Micronaut configuration files, then the defaults: docs/operations.md, Configuration), or
 * built with {@link #builder()}. Immutable and validated: a bad value fails with a {@link
 * SchedulerException} naming the key and its limit.
 *
 * @param bootstrapServers Kafka bootstrap servers (required)
 * @param namespace topic namespace ({@link Topics})
 * @param applicationId Kafka Streams application id, shared by all instances
 * @param partitions partitions of tasks, results and control when the scheduler creates them
 * @param punctuationInterval how often the due-index is scanned
 * @param scanBound the most due-index entries one scan handles
 * @param processingGuarantee {@code at_least_once} (default) or {@code exactly_once_v2}
 * @param commitInterval Kafka Streams' {@code commit.interval.ms}; null: {@link
 *     #DEFAULT_COMMIT_INTERVAL_EOS} under {@code exactly_once_v2}, where a dispatch (and a
 *     schedule's fire task) is visible to read_committed readers only once the transaction that
 *     wrote it commits, so each hop waits up to one interval; {@link #DEFAULT_COMMIT_INTERVAL_ALOS}
 *     under {@code at_least_once}, where records are visible as soon as they are sent and the
 *     interval only bounds the input replayed after a crash (shorter: more commits, more CPU)
 * @param numStandbyReplicas warm standby copies of each store on other instances
 * @param stateDir where RocksDB keeps the stores (keep it out of /tmp)
 * @param retention how long finished tasks stay queryable and deduplicated
 * @param snoozeCap the most RETRY_LATER answers per task before it goes DEAD
 * @param timeoutGrace added to a task's timeout to get the attempt's deadline; it must also cover
 *     the time a dispatch may wait in its handler topic behind a backlog (the deadline counts from
 *     dispatch, the worker enforces the timeout itself from the handler's start)
 * @param maxDispatched the most attempts of one handler out (dispatched, no result yet) per
 *     scheduler partition; further due tasks wait in the scheduler, in due order, instead of piling
 *     up in the handler topic
 * @param topicRefreshInterval how often the list of handler topics is refreshed
 * @param advertisedHost the host other instances use to reach this one's HTTP API; null: detected
 *     at start (the host name when it resolves to a non-loopback address, else the first
 *     non-loopback address; the start fails when there is none)
 * @param kafka extra Kafka / Streams settings passed through as they are (SASL, TLS, ...)
 * @param apiTokens the named bearer tokens; at least one is required, names unique
 * @param maxWaitersPerTask the most tasks that may wait on one task (dependency fan-in); the next
 *     one goes DEAD naming the limit
 * @param interInstanceToken the credential instances send each other when a status read is
 *     forwarded to the instance owning the task (never the caller's token); null: a random one is
 *     generated at start, so forwarded reads work only if every instance is given the same value
 * @param api redaction, audit retention and browser sessions of the HTTP API; null: {@link
 *     ApiSettings#DEFAULT}
 * @param workerGroupPrefix the workers' {@code group-id}: {@code ALL_WORKERS} schedules count the
 *     members of {@code <workerGroupPrefix>.<handler>}; null: {@code <namespace>-worker}, the
 *     workers' default
 * @param workerLostHeartbeats how many of a worker's heartbeat intervals may pass without one
 *     before {@code GET /api/workers} shows it lost (1 to 100)
 * @param searchScanBound the most index entries one instance reads for one page of {@code GET
 *     /api/tasks}; a page that reaches it answers {@code partial: true} with a cursor to continue
 * @param logLinesPerTask the most handler log lines kept per task ({@code <ns>.logs}); later lines
 *     are counted as dropped
 * @param logBytesPerTask the most bytes of log messages kept per task
 * @param alerts the alert rules and their webhook ({@code alerts.*}); null: {@link
 *     AlertConfig#NONE}
 * @param storeMemoryMb the off-heap memory all of this instance's RocksDB stores share (block cache
 *     and memtables, 16 to 65,536 MiB); without a bound each store of each partition has its own
 *     cache and memtables and the process grows with the partition count under load
 * @param scheduleLead how long before its instant a fire of an {@code overlap: ALLOW} schedule is
 *     made, as a task due at the instant (0 to 60 s; 0: at the instant); null: {@link
 *     #DEFAULT_SCHEDULE_LEAD}
 * @param replication {@code replication-factor}, {@code min-insync-replicas} and {@code
 *     allow-unsafe-replication} of the topics the scheduler and its Kafka Streams create
 *     (changelogs and repartition topics included); null: {@link TopicReplication#DEFAULT}, which
 *     follows the cluster
 * @param interInstanceTrustStore the truststore a forwarded read trusts the owner instance's HTTPS
 *     certificate with, when the API runs TLS ({@code micronaut.server.ssl.enabled}); null: the
 *     JVM's default truststore
 * @param handlers lane and rate settings by handler name ({@code handlers.<name>.*})
 * @param limits the named rate limits tasks may name ({@code limits.<name>.*})
 * @param adaptiveWindow {@code adaptive-window}: each handler's window of attempts out per
 *     partition is sized from its results (about twice what keeps its workers busy), {@code
 *     maxDispatched} at most, while tasks wait for their turns (the default); false: always {@code
 *     maxDispatched}
 * @param priorityAging {@code priority-aging}: the most a waiting task of the lowest priority is
 *     held back by higher-priority tasks beyond its turn in arrival order (1 s to 1 d); null:
 *     {@link #DEFAULT_PRIORITY_AGING}
 */
public record SchedulerConfig(
    String bootstrapServers,
    String namespace,
    String applicationId,
    int partitions,
    Duration punctuationInterval,
    int scanBound,
    ProcessingGuarantee processingGuarantee,
    Duration commitInterval,
    int numStandbyReplicas,
    Path stateDir,
    Duration retention,
    int snoozeCap,
    Duration timeoutGrace,
    int maxDispatched,
    Duration topicRefreshInterval,
    String advertisedHost,
    Map<String, String> kafka,
    List<ApiToken> apiTokens,
    int maxWaitersPerTask,
    String interInstanceToken,
    ApiSettings api,
    String workerGroupPrefix,
    int workerLostHeartbeats,
    int searchScanBound,
    int logLinesPerTask,
    int logBytesPerTask,
    AlertConfig alerts,
    int storeMemoryMb,
    Duration scheduleLead,
    TopicReplication replication,
    TrustStore interInstanceTrustStore,
    Map<String, HandlerDefaults> handlers,
    Map<String, RateLimit> limits,
    boolean adaptiveWindow,
    Duration priorityAging) {

  public static final String PREFIX = "tasklane.scheduler";
  public static final int DEFAULT_PARTITIONS = TopicAdmin.DEFAULT_PARTITIONS;
  public static final Duration DEFAULT_PUNCTUATION_INTERVAL = Duration.ofMillis(20);
  public static final int DEFAULT_SCAN_BOUND = 5_000;
  public static final ProcessingGuarantee DEFAULT_PROCESSING_GUARANTEE =
      ProcessingGuarantee.AT_LEAST_ONCE;

  /**
   * 100 ms under {@code exactly_once_v2} (Kafka Streams' own default there): each transaction
   * commit makes the dispatches of the last interval visible, so the interval is added to every
   * hop.
   */
  public static final Duration DEFAULT_COMMIT_INTERVAL_EOS = Duration.ofMillis(100);

  /** 1 s under {@code at_least_once}: a crash replays at most a second of input (deduplicated). */
  public static final Duration DEFAULT_COMMIT_INTERVAL_ALOS = Duration.ofSeconds(1);

  public static final int DEFAULT_NUM_STANDBY_REPLICAS = 0;
  public static final Path DEFAULT_STATE_DIR =
      Path.of(System.getProperty("user.home"), ".tasklane", "scheduler-state");
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
  public static final int DEFAULT_SNOOZE_CAP = 100;

  /**
   * 30 minutes: the scheduler's deadline is only the last resort for an attempt whose result never
   * comes (the worker times out its handler itself, and a dead worker's dispatches are redelivered
   * by Kafka). Ten seconds made a backlog longer than the task timeout re-dispatch every queued
   * task (docs/scheduler-streams.md, timeouts).
   */
  public static final Duration DEFAULT_TIMEOUT_GRACE = Duration.ofMinutes(30);

  /**
   * 1,000 per handler and partition: enough to keep a worker fleet busy, small enough that a
   * dispatch never waits long in the handler topic (docs/scheduler-streams.md, flow control).
   */
  public static final int DEFAULT_MAX_DISPATCHED = 1_000;

  public static final Duration DEFAULT_TOPIC_REFRESH_INTERVAL = Duration.ofSeconds(5);
  public static final int DEFAULT_MAX_WAITERS_PER_TASK = 10_000;
  public static final int DEFAULT_WORKER_LOST_HEARTBEATS = 3;
  public static final int DEFAULT_SEARCH_SCAN_BOUND = 20_000;
  public static final int DEFAULT_LOG_LINES_PER_TASK = 200;
  public static final int DEFAULT_LOG_BYTES_PER_TASK = 64 * 1024;
  public static final int DEFAULT_STORE_MEMORY_MB = 128;

  /**
   * 1.5 s: a fire is made this long ahead, so that the burst of tasks of many schedules sharing an
   * instant is admitted before it and each is dispatched by its own task timer at the instant. Half
   * a second off the whole second on purpose: schedules fire on whole seconds, so with a lead of
   * whole seconds the fires made for {@code T + lead} were made by the same tick that dispatched
   * the burst due at {@code T}, behind it on the one stream thread; at {@code x.5 s} they are made
   * between two bursts.
   */
  public static final Duration DEFAULT_SCHEDULE_LEAD = Duration.ofMillis(1_500);

  /**
   * 5 minutes: a task of priority 0 waits at most this much longer than it would in arrival order
   * while tasks of priority 9 keep coming; each step of priority is a ninth of it.
   */
  public static final Duration DEFAULT_PRIORITY_AGING = Duration.ofMinutes(5);

  /**
   * What a token may do, each role everything the one before may: read (viewer), act on tasks and
   * fire schedules (operator), change handlers, schedules and configuration and act in bulk
   * (admin). Which role each endpoint needs: docs/scheduler-streams.md, HTTP API.
   */
  public enum Role {
    VIEWER,
    OPERATOR,
    ADMIN;

    /** Whether a token of this role may do what {@code needed} may. */
    public boolean includes(Role needed) {
      return compareTo(needed) >= 0;
    }

    /** The lower-case name used in configuration and messages ({@code viewer}). */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public SchedulerConfig {
    ConfigChecks.require(
        "bootstrap-servers",
        bootstrapServers != null && !bootstrapServers.isBlank(),
        "is required");
    namespace = namespace == null ? Topics.DEFAULT_NAMESPACE : namespace;
    new Topics(namespace);
    applicationId = applicationId == null ? namespace + "-scheduler" : applicationId;
    ConfigChecks.require(
        "application-id",
        applicationId.matches("[a-zA-Z0-9._-]{1,200}"),
        "must match [a-zA-Z0-9._-]{1,200}");
    workerGroupPrefix = workerGroupPrefix == null ? namespace + "-worker" : workerGroupPrefix;
    ConfigChecks.require(
        "worker-group-prefix",
        workerGroupPrefix.matches("[a-zA-Z0-9._-]{1,200}"),
        "must match [a-zA-Z0-9._-]{1,200} (the workers' group-id)");
    ConfigChecks.range("partitions", partitions, 1, 10_000);
    punctuationInterval = ConfigChecks.orDefault(punctuationInterval, DEFAULT_PUNCTUATION_INTERVAL);
    ConfigChecks.range(
        "punctuation-interval", punctuationInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
    ConfigChecks.range("scan-bound", scanBound, 1, 1_000_000);
    processingGuarantee =
        processingGuarantee == null ? DEFAULT_PROCESSING_GUARANTEE : processingGuarantee;
    commitInterval =
        ConfigChecks.orDefault(
            commitInterval,
            processingGuarantee == ProcessingGuarantee.EXACTLY_ONCE_V2
                ? DEFAULT_COMMIT_INTERVAL_EOS
                : DEFAULT_COMMIT_INTERVAL_ALOS);
    ConfigChecks.range(
        "commit-interval", commitInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
    ConfigChecks.range("num-standby-replicas", numStandbyReplicas, 0, 10);
    stateDir = stateDir == null ? DEFAULT_STATE_DIR : stateDir;
    retention = ConfigChecks.orDefault(retention, DEFAULT_RETENTION);
    ConfigChecks.range("retention", retention, Duration.ofMinutes(1), Duration.ofDays(3650));
    ConfigChecks.range("snooze-cap", snoozeCap, 1, 100_000);
    timeoutGrace = ConfigChecks.orDefault(timeoutGrace, DEFAULT_TIMEOUT_GRACE);
    ConfigChecks.range("timeout-grace", timeoutGrace, Duration.ZERO, Duration.ofHours(1));
    ConfigChecks.range("max-dispatched", maxDispatched, 1, 1_000_000);
    topicRefreshInterval =
        ConfigChecks.orDefault(topicRefreshInterval, DEFAULT_TOPIC_REFRESH_INTERVAL);
    ConfigChecks.range(
        "topic-refresh-interval",
        topicRefreshInterval,
        Duration.ofMillis(100),
        Duration.ofMinutes(10));
    ConfigChecks.require(
        "advertised-host",
        advertisedHost == null || advertisedHost.matches("[a-zA-Z0-9.:\\[\\]_-]{1,253}"),
        "'" + advertisedHost + "' is not a host name or address");
    kafka = kafka == null ? Map.of() : Map.copyOf(kafka);
    handlers = HandlerDefaults.checked(handlers);
    limits = HandlerDefaults.checkedLimits(limits);
    kafka.keySet().forEach(ConfigChecks::refuseProtected);
    apiTokens = apiTokens == null ? List.of() : List.copyOf(apiTokens);
    ConfigChecks.tokens(apiTokens, interInstanceToken);
    ConfigChecks.range("max-waiters-per-task", maxWaitersPerTask, 1, 1_000_000);
    ConfigChecks.range("worker-lost-heartbeats", workerLostHeartbeats, 1, 100);
    api = api == null ? ApiSettings.DEFAULT : api;
    ConfigChecks.range("search-scan-bound", searchScanBound, 100, 1_000_000);
    ConfigChecks.range("log-lines-per-task", logLinesPerTask, 1, 10_000);
    ConfigChecks.range("log-bytes-per-task", logBytesPerTask, 1_024, 16 * 1024 * 1024);
    alerts = alerts == null ? AlertConfig.NONE : alerts;
    ConfigChecks.range("store-memory-mb", storeMemoryMb, 16, 65_536);
    scheduleLead = ConfigChecks.orDefault(scheduleLead, DEFAULT_SCHEDULE_LEAD);
    ConfigChecks.range("schedule-lead", scheduleLead, Duration.ZERO, Duration.ofMinutes(1));
    priorityAging = ConfigChecks.orDefault(priorityAging, DEFAULT_PRIORITY_AGING);
    ConfigChecks.range("priority-aging", priorityAging, Duration.ofSeconds(1), Duration.ofDays(1));
    replication = replication == null ? TopicReplication.DEFAULT : replication;
  }

  /** A builder with every setting unset: the defaults above apply. */
  public static SchedulerConfigBuilder builder() {
    return new SchedulerConfigBuilder();
  }

  /** The configuration as it may be logged: tokens and secret Kafka settings masked. */
  @Override
  public String toString() {
    return ConfigChecks.describe(this);
  }

  /**
   * {@code kafka.*} keys the scheduler's guarantees rest on, refused with or without a Streams
   * client prefix ({@code producer.}, {@code consumer.}, {@code main.consumer.}, ...): the
   * producers' {@code acks}, {@code enable.idempotence} and {@code transactional.id}; {@code
   * processing.guarantee} (the typed {@code processing-guarantee}); {@code enable.auto.commit} and
   * {@code isolation.level}, which Kafka Streams sets itself.
   */
  public static final Set<String> PROTECTED_KAFKA_KEYS = ConfigChecks.PROTECTED_KAFKA_KEYS;
}
