package io.tasklane.scheduler.internal.ops;

import io.tasklane.core.LogText;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.core.WorkerHeartbeat;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workers registry: the latest heartbeat of every worker process on {@code <ns>.workers}, read
 * from the beginning by its own thread ({@code tasklane-workers-registry}, {@link
 * CompactedTopicReader}); a tombstone (clean shutdown) removes the worker. A worker is live while
 * its last heartbeat is younger than {@code worker-lost-heartbeats} of its own intervals, else
 * lost; a worker lost for more than {@link #FORGET_AFTER} is dropped. Each instance reads the whole
 * topic, so every instance answers for all workers. Thread-safe: written by the reader thread, read
 * by the API's threads.
 */
public final class WorkerRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerRegistry.class);

  /** How long a lost worker stays listed. */
  static final Duration FORGET_AFTER = Duration.ofDays(1);

  /**
   * A worker's last heartbeat and when it was seen: the earlier of its record's timestamp (the
   * worker's clock) and its receipt here, so that neither a replay at start nor a worker clock
   * ahead of this one makes it look fresher than it is.
   */
  public record Seen(WorkerHeartbeat beat, long lastSeenAt) {}

  private final Map<String, Seen> workers = new ConcurrentHashMap<>();
  private final Clock clock;
  private final int lostAfter;
  private CompactedTopicReader reader;

  public WorkerRegistry(Clock clock, int lostAfterHeartbeats) {
    this.clock = clock;
    this.lostAfter = lostAfterHeartbeats;
  }

  /** Starts reading {@code topic} with {@code clients} settings. */
  public void start(java.util.Properties clients, String topic) {
    reader = new CompactedTopicReader(clients, topic, "tasklane-workers-registry", this::apply);
    reader.start();
  }

  /** Reader thread: one record of {@code <ns>.workers}. */
  void apply(ConsumerRecord<String, byte[]> r) {
    if (r.key() == null) {
      return;
    }
    if (r.value() == null) {
      workers.remove(r.key());
      return;
    }
    try {
      WorkerHeartbeat beat = WireCodec.decodeHeartbeat(r.value());
      long seen = Math.min(clock.millis(), r.timestamp() > 0 ? r.timestamp() : beat.at());
      workers.put(r.key(), new Seen(beat, seen));
    } catch (WireFormatException e) {
      LOG.warn(
          "skipping heartbeat {} at offset {}: {}",
          LogText.escape(r.key()),
          r.offset(),
          LogText.escape(e.getMessage(), 1_000));
    }
  }

  /** Whether {@code s} heard from its worker recently enough, as of {@code now}. */
  public boolean live(Seen s, long now) {
    return now - s.lastSeenAt() <= lostAfter * Math.max(1, s.beat().intervalMs());
  }

  /** Every known worker, live first, then by id; forgets the ones lost too long. */
  public List<Seen> all() {
    long now = clock.millis();
    workers.values().removeIf(s -> now - s.lastSeenAt() > FORGET_AFTER.toMillis());
    List<Seen> out = new ArrayList<>(workers.values());
    out.sort(Comparator.comparing((Seen s) -> !live(s, now)).thenComparing(s -> s.beat().id()));
    return out;
  }

  /** The ids of the live workers that consume {@code handler}. */
  List<String> liveWorkersOf(String handler) {
    long now = clock.millis();
    List<String> ids = new ArrayList<>();
    for (Seen s : all()) {
      if (serves(s, handler, now)) {
        ids.add(s.beat().id());
      }
    }
    return ids;
  }

  /**
   * Any thread: whether {@code handler} has a live worker and every live worker consuming it holds
   * dispatches until their {@code notBefore} (a worker that predates it would start a fire sent
   * ahead early). Reads the map without sorting: asked once per schedule fire.
   */
  public boolean allHold(String handler) {
    long now = clock.millis();
    boolean any = false;
    for (Seen s : workers.values()) {
      if (serves(s, handler, now)) {
        if (!s.beat().holdsDispatches()) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  /** Whether {@code s} is live as of {@code now} and consumes {@code handler}. */
  private boolean serves(Seen s, String handler, long now) {
    return live(s, now) && s.beat().handlers().stream().anyMatch(h -> h.name().equals(handler));
  }

  /** The clock the views are judged by. */
  public long now() {
    return clock.millis();
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
    }
  }
}
