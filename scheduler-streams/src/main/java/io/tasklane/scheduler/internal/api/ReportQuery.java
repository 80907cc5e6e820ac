package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.ReportBucket;
import io.tasklane.scheduler.internal.lifecycle.ReportGrain;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Answers {@code GET /api/reports}: the {@link ReportGrain} buckets of one handler in every local
 * partition's store (each partition holds its own figures of every handler, so each is read on its
 * own), merged with those of every other instance ({@link FanOut}; histograms are merged, then the
 * percentiles taken). A forwarded read answers the encoded buckets instead of percentiles. Called
 * on Micronaut's blocking executor.
 */
@Singleton
@Internal
public final class ReportQuery {
  /**
   * A forwarded read's answer: the instance's buckets, encoded ({@link ReportBucket#encode}), so
   * the asking instance merges histograms rather than percentiles.
   */
  record Encoded(List<Point> points) {
    /** One bucket: its start and the encoded bucket, base64. */
    record Point(long start, String bucket) {}

    static Encoded of(Map<Long, ReportBucket> buckets) {
      List<Point> points = new ArrayList<>();
      buckets.forEach(
          (start, b) ->
              points.add(new Point(start, Base64.getEncoder().encodeToString(b.encode()))));
      return new Encoded(points);
    }

    /** Merges these buckets into {@code buckets}. */
    void addTo(Map<Long, ReportBucket> buckets) {
      for (Point p : points) {
        ReportBucket b = ReportBucket.decode(Base64.getDecoder().decode(p.bucket()));
        buckets.merge(p.start(), b, ReportBucket::add);
      }
    }
  }

  private final StreamsAccess local;
  private final Topics topics;
  private final FanOut fanOut;

  ReportQuery(StreamsAccess local, Topics topics, FanOut fanOut) {
    this.local = local;
    this.topics = topics;
    this.fanOut = fanOut;
  }

  /** The report of {@code handler} in {@code grain} buckets starting from since to until. */
  StatusQuery.Answer report(
      String handler, ReportGrain grain, long since, long until, boolean forwarded) {
    KafkaStreams streams = local.streamsForApi();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return OwnerForward.error(
          503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    TreeMap<Long, ReportBucket> buckets;
    try {
      buckets = local(streams, handler, grain, grain.start(since), until);
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "report stores not queryable: " + e.getMessage());
    }
    if (forwarded) {
      return new StatusQuery.Answer(200, WireCodec.encodeToString(Encoded.of(buckets)));
    }
    String path =
        "/api/reports?handler="
            + URLEncoder.encode(handler, StandardCharsets.UTF_8)
            + "&bucket="
            + grain.label()
            + "&since="
            + since
            + "&until="
            + until
            + "&forwarded=true";
    FanOut.Answers others = fanOut.others(streams, path, "report figures");
    for (String body : others.bodies()) {
      WireCodec.treeToValue(WireCodec.readTree(body), Encoded.class).addTo(buckets);
    }
    List<ReportResponse.Point> points = new ArrayList<>();
    buckets.forEach((start, b) -> points.add(ReportResponse.Point.of(start, b)));
    ReportResponse m =
        new ReportResponse(
            handler,
            grain.label(),
            since,
            Instant.ofEpochMilli(since).toString(),
            until,
            Instant.ofEpochMilli(until).toString(),
            points,
            !others.missing().isEmpty(),
            others.missing());
    return new StatusQuery.Answer(200, WireCodec.encodeToString(m));
  }

  private TreeMap<Long, ReportBucket> local(
      KafkaStreams streams, String handler, ReportGrain grain, long from, long to) {
    TreeMap<Long, ReportBucket> out = new TreeMap<>();
    for (int partition : localPartitions(streams)) {
      ReadOnlyWindowStore<String, byte[]> store =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                      grain.store, QueryableStoreTypes.<String, byte[]>windowStore())
                  .withPartition(partition));
      try (WindowStoreIterator<byte[]> it =
          store.fetch(handler, Instant.ofEpochMilli(from), Instant.ofEpochMilli(to))) {
        while (it.hasNext()) {
          KeyValue<Long, byte[]> kv = it.next();
          out.merge(kv.key, ReportBucket.decode(kv.value), ReportBucket::add);
        }
      }
    }
    return out;
  }

  /** The partitions of {@code tasks} whose active task runs in this instance. */
  private List<Integer> localPartitions(KafkaStreams streams) {
    List<Integer> out = new ArrayList<>();
    String tasks = topics.tasks();
    for (ThreadMetadata t : streams.metadataForLocalThreads()) {
      for (TaskMetadata task : t.activeTasks()) {
        for (TopicPartition tp : task.topicPartitions()) {
          if (tp.topic().equals(tasks)) {
            out.add(tp.partition());
          }
        }
      }
    }
    return out;
  }
}
