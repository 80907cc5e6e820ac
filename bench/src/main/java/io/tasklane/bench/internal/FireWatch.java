package io.tasklane.bench.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.WireCodec;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Reads the dispatches of schedule fires on one handler topic from its end, on its own thread, or
 * is told of them by a reader of that topic ({@link #fed}): per fire (schedule name and fire
 * instant, from the task's headers) inside the watch window, the dispatch record's timestamp (taken
 * by the scheduler when it dispatched) and the task id; a second task id for one fire, or a fire
 * task dispatched again, counts as a duplicate. Readers may call any method from any thread once
 * the watch is stopped.
 */
final class FireWatch implements AutoCloseable {
  static final String HEADER_SCHEDULE = ReservedHeaders.SCHEDULE;
  static final String HEADER_FIRE_TIME = ReservedHeaders.FIRE_TIME;

  /** One fire's first dispatch. */
  record Fire(String taskId, long fireAt, long dispatchedAt) {}

  /** Null when {@link #fed}. */
  private final KafkaConsumer<String, byte[]> consumer;

  private final Thread thread;
  private final long windowStart;
  private final long windowEnd;
  private final Map<String, Fire> fires = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> idsByFire = new ConcurrentHashMap<>();
  private final AtomicLong redispatches = new AtomicLong();
  private volatile boolean running = true;

  private FireWatch(long windowStart, long windowEnd) {
    this.windowStart = windowStart;
    this.windowEnd = windowEnd;
    this.consumer = null;
    this.thread = null;
  }

  /** A watch without a consumer of its own: its reader calls {@link #seen} for each dispatch. */
  static FireWatch fed(long windowStart, long windowEnd) {
    return new FireWatch(windowStart, windowEnd);
  }

  FireWatch(String bootstrap, String topic, long windowStart, long windowEnd) {
    this.windowStart = windowStart;
    this.windowEnd = windowEnd;
    this.consumer = EndConsumers.atEnd(bootstrap, topic);
    this.thread = new Thread(this::loop, "bench-fire-watch");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      try {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          Dispatch d;
          try {
            d = WireCodec.decodeDispatch(r.value());
          } catch (RuntimeException e) {
            continue; // not a dispatch
          }
          seen(d, r.timestamp());
        }
      } catch (org.apache.kafka.common.errors.WakeupException e) {
        // close()
      } catch (RuntimeException e) {
        if (running) {
          System.err.println("bench fire watch: " + e);
        }
      }
    }
    consumer.close(Duration.ofSeconds(2));
  }

  /**
   * A dispatch read from the topic, with its record's timestamp: noted when it is a fire's inside
   * the window (the reader's thread; ignored once the watch is stopped).
   */
  void seen(Dispatch d, long timestamp) {
    if (!running) {
      return;
    }
    TaskEnvelope e = d.task();
    if (e.headers() == null || e.headers().get(HEADER_SCHEDULE) == null) {
      return;
    }
    long at = Long.parseLong(e.headers().get(HEADER_FIRE_TIME));
    if (at < windowStart || at >= windowEnd) {
      return;
    }
    String key = e.headers().get(HEADER_SCHEDULE) + " " + at;
    if (!idsByFire.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(d.id())) {
      redispatches.incrementAndGet();
    }
    fires.putIfAbsent(key, new Fire(d.id(), at, timestamp));
  }

  /** The first dispatch of every fire seen. */
  Iterable<Fire> fires() {
    return fires.values();
  }

  int size() {
    return fires.size();
  }

  /** Extra task ids for one fire plus fire tasks dispatched again. */
  long duplicates() {
    return idsByFire.values().stream().mapToLong(s -> s.size() - 1L).sum() + redispatches.get();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    if (consumer != null) {
      consumer.wakeup();
      thread.join(5000);
    }
  }
}
