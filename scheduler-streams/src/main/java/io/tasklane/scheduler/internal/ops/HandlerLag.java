package io.tasklane.scheduler.internal.ops;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The lag of a handler's workers: the end offsets of its dispatch topic minus the offsets its
 * consumer group ({@code <ns>-worker.<handler>}) committed, summed over the partitions, read with
 * the Admin client and cached {@link #MAX_AGE} per handler. Called on Micronaut's blocking executor
 * (blocks up to 10 s on a cache miss); thread-safe.
 */
public final class HandlerLag {
  static final Duration MAX_AGE = Duration.ofSeconds(5);

  private record Cached(long lag, long at) {}

  private final Admin admin;
  private final String groupPrefix;
  private final Clock clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public HandlerLag(Admin admin, String groupPrefix, Clock clock) {
    this.admin = admin;
    this.groupPrefix = groupPrefix;
    this.clock = clock;
  }

  /** The handler topic's lag, or null when it cannot be read now (no group yet, broker busy). */
  public Long lag(String handler, String topic) {
    long now = clock.millis();
    Cached c = cache.get(handler);
    if (c != null && now - c.at() <= MAX_AGE.toMillis()) {
      return c.lag() < 0 ? null : c.lag();
    }
    long lag = read(handler, topic);
    cache.put(handler, new Cached(lag, now));
    return lag < 0 ? null : lag;
  }

  private long read(String handler, String topic) {
    try {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(groupPrefix + "." + handler)
              .partitionsToOffsetAndMetadata()
              .get(10, TimeUnit.SECONDS);
      var partitions =
          admin
              .describeTopics(java.util.Set.of(topic))
              .allTopicNames()
              .get(10, TimeUnit.SECONDS)
              .get(topic)
              .partitions()
              .stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
          admin.listOffsets(partitions).all().get(10, TimeUnit.SECONDS);
      long sum = 0;
      for (var e : ends.entrySet()) {
        OffsetAndMetadata done = committed.get(e.getKey());
        sum += Math.max(0, e.getValue().offset() - (done == null ? 0 : done.offset()));
      }
      return sum;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    } catch (Exception e) {
      return -1;
    }
  }
}
