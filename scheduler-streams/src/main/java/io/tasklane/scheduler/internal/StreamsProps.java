package io.tasklane.scheduler.internal;

import io.tasklane.core.TopicReplication;
import io.tasklane.scheduler.ProcessingGuarantee;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.internal.lifecycle.EngineSettings;
import io.tasklane.scheduler.internal.lifecycle.SchedulerMetrics;
import io.tasklane.scheduler.internal.topology.OutputErrors;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Kafka client settings: defaults, then the pass-through {@code tasklane.scheduler.kafka.*} map,
 * then the typed settings of {@link SchedulerConfig} (which win).
 */
public final class StreamsProps {
  /**
   * The Streams consumers' group session timeout unless {@code kafka.session.timeout.ms} says
   * otherwise: a kill -9'd instance's partitions move after this long (Kafka's default is 45 s). 6
   * s is the broker's default lowest, {@code group.min.session.timeout.ms}.
   */
  static final int SESSION_TIMEOUT_MS = 6_000;

  /** Kafka Streams' own {@code poll.ms}, the longest wait for input of one poll kept here. */
  static final long DEFAULT_POLL_MS = 100;

  /** Their heartbeat interval unless {@code kafka.heartbeat.interval.ms} says otherwise. */
  static final int HEARTBEAT_INTERVAL_MS = 1_500;

  private StreamsProps() {}

  public static Properties clients(SchedulerConfig c) {
    Properties p = new Properties();
    p.putAll(c.kafka());
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, c.bootstrapServers());
    return p;
  }

  /**
   * The API's command producer: the pass-through settings, then {@code acks=all} and idempotence,
   * which win ({@link SchedulerConfig#PROTECTED_KAFKA_KEYS} are refused at start anyway).
   */
  static Properties producer(SchedulerConfig c) {
    Properties p = clients(c);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    return p;
  }

  /**
   * A {@code kafka.session.timeout.ms} given without {@code kafka.heartbeat.interval.ms} brings the
   * heartbeat down with it (a quarter of the session), as the broker refuses a heartbeat interval
   * that is not below the session timeout.
   */
  static void heartbeatFollowsSession(Map<Object, Object> p, Map<String, String> kafka) {
    String session = kafka.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
    if (session == null || kafka.containsKey(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)) {
      return;
    }
    try {
      long ms = Long.parseLong(session.trim());
      p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(100, ms / 4));
    } catch (NumberFormatException e) {
      // left to the Kafka client, which names the setting and the bad value
    }
  }

  /**
   * Kafka Streams creates its changelogs and repartition topics with the scheduler's replication
   * (its own default, -1, is the broker's, which is 1 on a broker left at Kafka's defaults).
   */
  static void replication(Properties p, TopicReplication.Resolved r) {
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) r.factor());
    p.put(
        StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
        String.valueOf(r.minInsyncReplicas()));
  }

  public static Properties streams(SchedulerConfig c, HostInfo self, SchedulerMetrics metrics) {
    Properties p = new Properties();
    p.put(StreamsConfig.producerPrefix(ProducerConfig.ACKS_CONFIG), "all");
    p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), "5");
    if (!"streams".equalsIgnoreCase(c.kafka().get(StreamsConfig.GROUP_PROTOCOL_CONFIG))) {
      // the classic protocol: the client asks for its session timeout (the streams one has none).
      // Unprefixed, so that an unprefixed kafka.session.timeout.ms replaces it.
      p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
      p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MS);
    }
    // Wall-clock punctuations run between polls: a poll that waits longer than the punctuation
    // interval for input would delay the due-index scan, so it waits at most that long.
    p.put(
        StreamsConfig.POLL_MS_CONFIG,
        Math.min(DEFAULT_POLL_MS, Math.max(1, c.punctuationInterval().toMillis())));
    // one shared memory budget for every RocksDB store; kafka.rocksdb.config.setter replaces it
    p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedStoreMemory.class);
    p.put(BoundedStoreMemory.BYTES_CONFIG, (long) c.storeMemoryMb() << 20);
    p.putAll(c.kafka());
    heartbeatFollowsSession(p, c.kafka());
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, c.applicationId());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, c.bootstrapServers());
    p.put(StreamsConfig.STATE_DIR_CONFIG, c.stateDir().toAbsolutePath().toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, c.processingGuarantee().streamsValue());
    // typed, so it wins over kafka.commit.interval.ms: see SchedulerConfig#commitInterval
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, c.commitInterval().toMillis());
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, c.numStandbyReplicas());
    p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
    // An output record no retry can write (too large) is logged, counted and skipped instead of
    // killing the thread over and over; other send errors fail and replay (OutputErrors). The
    // sources read String keys and raw bytes, whose deserializers cannot throw, so the default
    // deserialization handler stays; decoding happens in the processors (Inputs).
    p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, OutputErrors.class.getName());
    p.put(OutputErrors.METRICS_CONFIG, metrics);
    return p;
  }

  /** The stream threads' settings from {@code config}, for {@code partitions} partitions. */
  static EngineSettings engine(SchedulerConfig config, int partitions) {
    return EngineSettings.builder()
        .punctuationInterval(config.punctuationInterval())
        .scheduleLead(config.scheduleLead())
        .scanBound(config.scanBound())
        .retentionMs(config.retention().toMillis())
        .timeoutGraceMs(config.timeoutGrace().toMillis())
        .snoozeCap(config.snoozeCap())
        .noHandlerRecheckMs(config.topicRefreshInterval().toMillis())
        .maxDispatched(config.maxDispatched())
        .adaptiveWindow(config.adaptiveWindow())
        .priorityAgingMs(config.priorityAging().toMillis())
        .partitions(partitions)
        .healTimers(config.processingGuarantee() != ProcessingGuarantee.EXACTLY_ONCE_V2)
        .maxWaitersPerTask(config.maxWaitersPerTask())
        .logLinesPerTask(config.logLinesPerTask())
        .logBytesPerTask(config.logBytesPerTask())
        .build();
  }
}
