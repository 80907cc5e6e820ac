package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.core.Topics;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads that span every partition: this instance's active partitions of the task stores, read
 * through interactive queries, and the other instances ({@code application.server} of every Streams
 * client hosting them), asked with a forwarded GET and the inter-instance token ({@link
 * OwnerForward}). Called on Micronaut's blocking executor; thread-safe.
 */
@Singleton
@Internal
public final class FanOut {
  /** The answers of the other instances; {@code missing} names those that did not answer 200. */
  public record Answers(List<String> bodies, List<String> missing) {}

  /** An instance could not answer: the answer to give the caller as it is. */
  public static final class Unavailable extends RuntimeException {
    final StatusQuery.Answer answer;

    public Unavailable(StatusQuery.Answer answer) {
      super(answer.json(), null, false, false);
      this.answer = answer;
    }
  }

  private final StreamsAccess local;
  private final Topics topics;
  private final OwnerForward forward;

  FanOut(StreamsAccess local, Topics topics, OwnerForward forward) {
    this.local = local;
    this.topics = topics;
    this.forward = forward;
  }

  /** The running Streams instance; throws {@link Unavailable} 503 while it is not running. */
  public KafkaStreams streams() {
    KafkaStreams s = local.streamsForApi();
    if (s == null || s.state() != KafkaStreams.State.RUNNING) {
      throw new Unavailable(
          OwnerForward.error(503, "scheduler is " + (s == null ? "starting" : s.state())));
    }
    return s;
  }

  /** The partitions of {@code <ns>.tasks} whose stores this instance holds as active. */
  public List<Integer> localPartitions() {
    TreeSet<Integer> out = new TreeSet<>();
    for (ThreadMetadata t : streams().metadataForLocalThreads()) {
      for (TaskMetadata task : t.activeTasks()) {
        task.topicPartitions().stream()
            .filter(tp -> tp.topic().equals(topics.tasks()))
            .forEach(tp -> out.add(tp.partition()));
      }
    }
    return new ArrayList<>(out);
  }

  /** The other instances hosting the task stores. */
  public List<HostInfo> others() {
    List<HostInfo> out = new ArrayList<>();
    for (StreamsMetadata m : streams().metadataForAllStreamsClients()) {
      if (TaskReads.holdsTasks(m.stateStoreNames())
          && !m.hostInfo().equals(local.self())
          && !m.hostInfo().equals(HostInfo.unavailable())) {
        out.add(m.hostInfo());
      }
    }
    return out;
  }

  /** Store {@code name} of local partition {@code partition}; 503 while it moves. */
  public <K, V> ReadOnlyKeyValueStore<K, V> store(String name, int partition) {
    QueryableStoreType<ReadOnlyKeyValueStore<K, V>> type = QueryableStoreTypes.keyValueStore();
    try {
      return streams()
          .store(StoreQueryParameters.fromNameAndType(name, type).withPartition(partition));
    } catch (RuntimeException e) {
      throw new Unavailable(
          OwnerForward.error(
              503, "partition " + partition + " is moving; retry: " + e.getMessage()));
    }
  }

  /**
   * GETs {@code pathAndQuery} (ending in {@code forwarded=true}) from {@code host}: the body of a
   * 200, else {@link Unavailable} with the instance's answer.
   */
  String get(HostInfo host, String pathAndQuery) {
    StatusQuery.Answer a = forward.get(host, pathAndQuery, "part of the answer");
    if (a.status() != 200) {
      throw new Unavailable(a);
    }
    return a.json();
  }

  /**
   * Asks every other instance {@code pathAndQuery} (URL-encoded, ending in forwarded=true) and
   * collects the 200 answers; the others are named in {@link Answers#missing()} rather than thrown.
   */
  public Answers others(KafkaStreams streams, String pathAndQuery, String what) {
    Set<HostInfo> hosts = new LinkedHashSet<>();
    for (StreamsMetadata m : streams.metadataForAllStreamsClients()) {
      if (!m.hostInfo().equals(local.self()) && !m.hostInfo().equals(HostInfo.unavailable())) {
        hosts.add(m.hostInfo());
      }
    }
    List<String> bodies = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (HostInfo h : hosts) {
      StatusQuery.Answer r = forward.get(h, pathAndQuery, what);
      if (r.status() == 200) {
        bodies.add(r.json());
      } else {
        missing.add(h.host() + ":" + h.port());
      }
    }
    return new Answers(bodies, missing);
  }
}
