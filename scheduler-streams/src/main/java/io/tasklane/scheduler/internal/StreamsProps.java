package io.tasklane.scheduler.internal;

import io.tasklane.scheduler.SchedulerConfig;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Kafka client settings: defaults, then the pass-through {@code tasklane.scheduler.kafka.*} map,
 * then the typed settings of {@link SchedulerConfig} (which win).
 */
final class StreamsProps {
  private StreamsProps() {}

  static Properties clients(SchedulerConfig c) {
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

  static Properties streams(SchedulerConfig c, HostInfo self, SchedulerMetrics metrics) {
    Properties p = new Properties();
    p.put(StreamsConfig.producerPrefix(ProducerConfig.ACKS_CONFIG), "all");
    p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), "5");
    p.putAll(c.kafka());
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
}
