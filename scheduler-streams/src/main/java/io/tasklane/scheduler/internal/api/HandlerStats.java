package io.tasklane.scheduler.internal.api;

import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.ReportBucket;
import io.tasklane.scheduler.internal.lifecycle.ReportGrain;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * The figures of {@code GET /api/handlers}, per handler: tasks by state (the state-count stores),
 * the backlog (tasks due and held in the handler's flow-control queues: the queue keys of the
 * due-index) and the recent outcomes, run times and lateness (the minute report buckets of the
 * current minute and the {@link #WINDOW_MINUTES} - 1 before it). This instance reads the partitions
 * it owns; the instance the caller asked merges the raw figures of every other one ({@link FanOut};
 * histograms merged before percentiles are taken). Called on Micronaut's blocking executor; reads
 * only, no transaction.
 */
public final class HandlerStats {
  /** Minute buckets in the recent window: the current one and the four before it. */
  static final int WINDOW_MINUTES = 5;

  /** One handler's figures, local or merged. */
  static final class Figures {
    final EnumMap<TaskState, Long> counts = new EnumMap<>(TaskState.class);
    long backlog;
    ReportBucket recent = new ReportBucket();

    Figures add(Figures o) {
      o.counts.forEach((s, n) -> counts.merge(s, n, Long::sum));
      backlog += o.backlog;
      recent.add(o.recent);
      return this;
    }
  }

  /** The merged figures, with the instances that did not answer. */
  public record All(Map<String, Figures> handlers, long since, List<String> missing) {
    public Figures of(String handler) {
      return handlers.getOrDefault(handler, new Figures());
    }
  }

  private final FanOut fanOut;

  HandlerStats(FanOut fanOut) {
    this.fanOut = fanOut;
  }

  /** Where the recent window starts at {@code now}: the start of the oldest minute bucket. */
  static long since(long now) {
    return ReportGrain.MINUTE.start(now) - (WINDOW_MINUTES - 1) * ReportGrain.MINUTE.sizeMs;
  }

  /** Every instance's figures merged; {@link FanOut.Unavailable} while Streams is not running. */
  public All all(long now) {
    KafkaStreams streams = fanOut.streams();
    Map<String, Figures> merged = local(streams, now);
    FanOut.Answers others =
        fanOut.others(streams, "/api/handlers?at=" + now + "&forwarded=true", "handler figures");
    for (String body : others.bodies()) {
      WireCodec.treeToValue(WireCodec.readTree(body), Encoded.class)
          .figures()
          .forEach((h, f) -> merged.merge(h, f, (a, b) -> a.add(b)));
    }
    return new All(merged, since(now), others.missing());
  }

  /** This instance's figures as a forwarded read answers them. */
  public String forwarded(long now) {
    return WireCodec.encodeToString(Encoded.of(local(fanOut.streams(), now)));
  }

  /**
   * A forwarded read's answer: per handler its counts by state, its backlog and its recent bucket
   * encoded ({@link ReportBucket#encode}, base64), so the asking instance merges histograms rather
   * than percentiles.
   */
  record Encoded(Map<String, Part> handlers) {
    /** One handler's figures. */
    record Part(Map<TaskState, Long> counts, long backlog, String recent) {}

    static Encoded of(Map<String, Figures> figures) {
      Map<String, Part> out = new TreeMap<>();
      figures.forEach(
          (h, f) ->
              out.put(
                  h,
                  new Part(
                      f.counts, f.backlog, Base64.getEncoder().encodeToString(f.recent.encode()))));
      return new Encoded(out);
    }

    Map<String, Figures> figures() {
      Map<String, Figures> out = new TreeMap<>();
      handlers.forEach(
          (h, p) -> {
            Figures f = new Figures();
            if (p.counts() != null) {
              f.counts.putAll(p.counts());
            }
            f.backlog = p.backlog();
            f.recent = ReportBucket.decode(Base64.getDecoder().decode(p.recent()));
            out.put(h, f);
          });
      return out;
    }
  }

  private Map<String, Figures> local(KafkaStreams streams, long now) {
    Map<String, Figures> out = new TreeMap<>();
    for (int p : fanOut.localPartitions()) {
      TaskReads reads = TaskReads.of(name -> fanOut.store(name, p));
      for (TaskReads.GroupCount c : reads.counts()) {
        out.computeIfAbsent(c.handler(), h -> new Figures())
            .counts
            .merge(c.state(), c.count(), Long::sum);
      }
      reads.forEachQueued(h -> out.computeIfAbsent(h, x -> new Figures()).backlog++);
      ReadOnlyWindowStore<String, byte[]> minutes = window(streams, p);
      try (KeyValueIterator<Windowed<String>, byte[]> it =
          minutes.fetchAll(Instant.ofEpochMilli(since(now)), Instant.ofEpochMilli(now))) {
        while (it.hasNext()) {
          KeyValue<Windowed<String>, byte[]> kv = it.next();
          out.computeIfAbsent(kv.key.key(), h -> new Figures())
              .recent
              .add(ReportBucket.decode(kv.value));
        }
      }
    }
    return out;
  }

  private static ReadOnlyWindowStore<String, byte[]> window(KafkaStreams streams, int partition) {
    try {
      return streams.store(
          StoreQueryParameters.fromNameAndType(
                  ReportGrain.MINUTE.store, QueryableStoreTypes.<String, byte[]>windowStore())
              .withPartition(partition));
    } catch (RuntimeException e) {
      throw new FanOut.Unavailable(
          OwnerForward.error(
              503, "partition " + partition + " is moving; retry: " + e.getMessage()));
    }
  }
}
