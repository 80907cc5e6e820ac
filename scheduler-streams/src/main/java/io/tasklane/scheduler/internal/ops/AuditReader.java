package io.tasklane.scheduler.internal.ops;

import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.internal.StreamsProps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the newest records of {@code <ns>.audit}: per partition from {@code offsetsForTimes(since)}
 * or {@code limit} records before the end, whichever is later, up to the end offset seen at the
 * start, with a consumer of its own (assigned, no group, nothing committed). Bounded: at most
 * {@code limit} records per partition and {@link #BOUND} of waiting. Called on Micronaut's blocking
 * executor.
 */
public final class AuditReader {
  /** The longest one read waits for the broker. */
  static final Duration BOUND = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(AuditReader.class);

  /** The audit topic could not be read within {@link #BOUND}. */
  public static final class Unavailable extends Exception {
    public Unavailable(String message) {
      super(message);
    }
  }

  private AuditReader() {}

  /** The newest {@code limit} entries at or after {@code since}, newest first. */
  public static List<AuditEntry> newest(
      SchedulerConfig config, Topics topics, long since, int limit) throws Unavailable {
    Properties p = StreamsProps.clients(config);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(limit));
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.applicationId() + "-audit-reader");
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    String topic = topics.audit();
    long deadline = System.nanoTime() + BOUND.toNanos();
    List<AuditEntry> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> c =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(topic, BOUND).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      c.assign(parts);
      Map<TopicPartition, Long> ends = c.endOffsets(parts, BOUND);
      Map<TopicPartition, Long> query = new HashMap<>();
      parts.forEach(tp -> query.put(tp, since));
      Map<TopicPartition, OffsetAndTimestamp> starts = c.offsetsForTimes(query, BOUND);
      Map<TopicPartition, Long> remaining = new HashMap<>();
      for (TopicPartition tp : parts) {
        long end = ends.get(tp);
        OffsetAndTimestamp at = starts.get(tp);
        long start = Math.max(at == null ? end : at.offset(), end - limit);
        start = Math.max(start, c.beginningOffsets(List.of(tp), BOUND).get(tp));
        c.seek(tp, start);
        if (start < end) {
          remaining.put(tp, end);
        }
      }
      while (!remaining.isEmpty() && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
          TopicPartition tp = new TopicPartition(r.topic(), r.partition());
          Long end = remaining.get(tp);
          if (end == null || r.offset() >= end) {
            continue;
          }
          decode(r).filter(e -> e.at() >= since).ifPresent(out::add);
          if (r.offset() + 1 >= end) {
            remaining.remove(tp);
          }
        }
      }
      if (!remaining.isEmpty()) {
        throw new Unavailable(
            "could not read " + topic + " within " + BOUND.toSeconds() + " s; retry later");
      }
    } catch (org.apache.kafka.common.KafkaException e) {
      throw new Unavailable("could not read " + topic + ": " + e.getMessage());
    }
    out.sort(Comparator.comparingLong(AuditEntry::at).reversed());
    return out.size() <= limit ? out : out.subList(0, limit);
  }

  private static java.util.Optional<AuditEntry> decode(ConsumerRecord<String, byte[]> r) {
    try {
      return java.util.Optional.of(WireCodec.mapper().readValue(r.value(), AuditEntry.class));
    } catch (java.io.IOException | RuntimeException e) {
      LOG.warn("skipping audit record at offset {}: {}", r.offset(), e.toString());
      return java.util.Optional.empty();
    }
  }
}
