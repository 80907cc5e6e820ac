package io.tasklane.bench.internal;

import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Watches {@code <ns>.tasks} (what the relay produced) and {@code <ns>.results} (what the worker
 * finished) from their ends, on its own thread. Per SUCCEEDED result it keeps the handler start
 * time ({@code TaskResult.startedAt}) and the worker by task id and counts completions per
 * wall-clock second. Readers may call any method from any thread.
 */
public final class Tap implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final String tasksTopic;
  private final Thread thread;
  private volatile boolean running = true;
  private final Map<String, Long> starts = new ConcurrentHashMap<>();
  private final Map<String, String> workers = new ConcurrentHashMap<>();
  private final ConcurrentSkipListMap<Long, LongAdder> perSecond = new ConcurrentSkipListMap<>();
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong tasksSeen = new AtomicLong();
  private final AtomicLong lastTaskTs = new AtomicLong();
  private final AtomicLong lastResultTs = new AtomicLong();
  private volatile boolean keepSends;
  private final Map<String, Long> sends = new ConcurrentHashMap<>();

  public Tap(String bootstrap, Topics topics) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    this.tasksTopic = topics.tasks();
    List<TopicPartition> parts = new ArrayList<>();
    for (String t : List.of(topics.tasks(), topics.results())) {
      consumer
          .partitionsFor(t, Duration.ofSeconds(30))
          .forEach(i -> parts.add(new TopicPartition(t, i.partition())));
    }
    consumer.assign(parts);
    consumer.seekToEnd(parts);
    parts.forEach(consumer::position); // resolve now: only records after this point count
    this.thread = new Thread(this::loop, "bench-tap");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      try {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          if (r.topic().equals(tasksTopic)) {
            tasksSeen.incrementAndGet();
            lastTaskTs.accumulateAndGet(r.timestamp(), Math::max);
            if (keepSends && r.key() != null) {
              sends.putIfAbsent(r.key(), r.timestamp());
            }
          } else if (r.value() != null) {
            TaskResult res = WireCodec.decodeResult(r.value());
            if (res.outcome() == Outcome.SUCCEEDED
                && starts.putIfAbsent(res.id(), res.startedAt()) == null) {
              workers.put(res.id(), String.valueOf(res.worker()));
              succeeded.incrementAndGet();
              perSecond.computeIfAbsent(r.timestamp() / 1000, k -> new LongAdder()).increment();
              lastResultTs.accumulateAndGet(r.timestamp(), Math::max);
            }
          }
        }
      } catch (Throwable t) {
        if (running) {
          System.err.println("bench tap: " + t);
        }
      }
    }
    consumer.close(Duration.ofSeconds(2));
  }

  /** Handler start (epoch ms) of task {@code id}, or null if no SUCCEEDED result was seen yet. */
  public Long startOf(String id) {
    return starts.get(id);
  }

  /**
   * From now on (true) keeps, by record key (a task's id unless it has an ordering key), the
   * producer timestamp of its first record in {@code <ns>.tasks}: when the relay sent it. Off by
   * default (the scale scenarios pass millions of tasks); false forgets them.
   */
  public void keepSends(boolean value) {
    keepSends = value;
    if (!value) {
      sends.clear();
    }
  }

  /** When the relay sent task {@code id} ({@link #keepSends}), or null. */
  public Long sendOf(String id) {
    return sends.get(id);
  }

  /** The worker name of task {@code id}'s first SUCCEEDED result, or null if none was seen yet. */
  public String workerOf(String id) {
    return workers.get(id);
  }

  public long succeeded() {
    return succeeded.get();
  }

  public long tasksSeen() {
    return tasksSeen.get();
  }

  /** Producer timestamp of the newest record the relay wrote to {@code <ns>.tasks}. */
  public long lastTaskTs() {
    return lastTaskTs.get();
  }

  /** Timestamp of the newest SUCCEEDED result. */
  public long lastResultTs() {
    return lastResultTs.get();
  }

  /** Completions per second in {@code [fromMs, toMs]}: one value per second. */
  public List<long[]> perSecond(long fromMs, long toMs) {
    List<long[]> out = new ArrayList<>();
    for (long s = fromMs / 1000; s <= toMs / 1000; s++) {
      LongAdder a = perSecond.get(s);
      out.add(new long[] {s * 1000 - fromMs, a == null ? 0 : a.sum()});
    }
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    thread.join(5000);
  }
}
