package io.tasklane.bench.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.Topics;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.harness.TasklaneApps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The {@code schedules} scenario: defines {@code schedules} fixed-rate schedules with periods of 1
 * to 60 s (seeded) and 100 of 1 s on the no-op handler, waits until the scheduler lists them all
 * ({@code GET /api/schedules}), then watches their fires for {@code scheduleSeconds}: each fire
 * task as the scheduler emits it on {@code <ns>.tasks} (emit lateness: its {@code createdAt} − the
 * fire instant) and as it is dispatched to the handler topic (fire lateness: {@code dispatchedAt} −
 * the fire instant), duplicate fires (a second task id for one fire instant, or a fire task
 * dispatched again), early fires (dispatched before the instant) and fires missing against the
 * calendar; then deletes every schedule. Runs on the bench thread; the watcher has its own.
 */
final class ScheduleLoad {
  private static final long SEED = 42;
  private static final int ONE_SECOND = 100;
  private static final String HEADER_SCHEDULE = "tasklane.schedule";
  private static final String HEADER_FIRE_TIME = "tasklane.fire-time";

  private final BenchRun run;
  private final Topics topics;
  private final String handler = "noop";
  private final Map<String, Long> emitted = new ConcurrentHashMap<>();
  private final Map<String, Long> dispatched = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> idsByFire = new ConcurrentHashMap<>();
  private final AtomicLong redispatches = new AtomicLong();
  private final AtomicLong early = new AtomicLong();
  private volatile long windowStart = Long.MAX_VALUE;
  private volatile long windowEnd = Long.MAX_VALUE;
  private volatile boolean watching = true;
  private final HttpClient http = HttpClient.newHttpClient();

  ScheduleLoad(BenchRun run, Topics topics) {
    this.run = run;
    this.topics = topics;
  }

  void run() throws Exception {
    int n = run.options.schedules();
    int total = n + ONE_SECOND;
    Random random = new Random(SEED);
    List<ScheduleDefinition> defs = new ArrayList<>(total);
    for (int i = 0; i < total; i++) {
      int period = i < ONE_SECOND ? 1 : 1 + random.nextInt(60);
      defs.add(
          ScheduleDefinition.builder()
              .name("bench.s" + i)
              .version(1)
              .handler(handler)
              .every(period + "s")
              .build());
    }
    Thread watcher = Scenarios.background(this::watch);
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (ScheduleDefinition d : defs) {
        producer.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(d)));
      }
      producer.flush();
      AtomicLong held = new AtomicLong();
      run.progress(
          "defining " + total + " schedules",
          () -> held.get() + "/" + total + " held",
          () -> {
            held.set(listed());
            return held.get() >= total;
          },
          Duration.ofSeconds(Math.max(120, total / 100)));
      run.results.put("schedules_held", held.get());
      windowStart = System.currentTimeMillis() + 5_000;
      windowEnd = windowStart + run.options.scheduleSeconds() * 1000L;
      run.progress(
          "watching fires for " + run.options.scheduleSeconds() + " s",
          () -> dispatched.size() + " fires dispatched, " + emitted.size() + " emitted",
          () -> System.currentTimeMillis() > windowEnd + 10_000,
          Duration.ofSeconds(run.options.scheduleSeconds() + 60L));
      double rss = Probes.rssMb(run.scheduler.pid());
      watching = false;
      watcher.join(10_000);
      report(defs, rss);
      for (ScheduleDefinition d : defs) {
        Unschedule u = Unschedule.of(d.name(), d.version(), System.currentTimeMillis());
        producer.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(u)));
      }
      producer.flush();
    }
  }

  private void report(List<ScheduleDefinition> defs, double rss) {
    Histogram fire = Results.histogram();
    Histogram emit = Results.histogram();
    dispatched.forEach((fireKey, at) -> fire.recordValue(Math.max(0, at - fireAt(fireKey))));
    emitted.forEach((fireKey, at) -> emit.recordValue(Math.max(0, at - fireAt(fireKey))));
    long extraIds = idsByFire.values().stream().mapToLong(s -> s.size() - 1L).sum();
    long expected = 0;
    for (ScheduleDefinition d : defs) {
      long p = Long.parseLong(d.every().replace("s", "")) * 1000;
      expected += Math.floorDiv(windowEnd - 1, p) - Math.floorDiv(windowStart - 1, p);
    }
    Results r = run.results;
    r.put("schedule_fire_lateness_p50_ms", fire.getValueAtPercentile(50));
    r.put("schedule_fire_lateness_p99_ms", fire.getValueAtPercentile(99));
    r.put("schedule_fire_lateness_max_ms", fire.getMaxValue());
    r.put("schedule_emit_lateness_p99_ms", emit.getValueAtPercentile(99));
    r.put("schedule_duplicate_fires", extraIds + redispatches.get());
    r.put("schedule_early_fires", early.get());
    r.put("schedule_fires", dispatched.size());
    r.put("schedule_missing_fires", Math.max(0, expected - dispatched.size()));
    r.put("schedules_rss_mb", rss);
    run.out.printf(
        "  %d schedules: %d fires in %d s (%d expected); fire lateness p50 %d ms, p99 %d ms, max %d"
            + " ms; emit lateness p99 %d ms; duplicates %d, early %d; scheduler RSS %.0f MiB%n",
        defs.size(),
        dispatched.size(),
        run.options.scheduleSeconds(),
        expected,
        fire.getValueAtPercentile(50),
        fire.getValueAtPercentile(99),
        fire.getMaxValue(),
        emit.getValueAtPercentile(99),
        extraIds + redispatches.get(),
        early.get(),
        rss);
  }

  /** A fire's key: schedule name, a space, the fire instant. */
  private static long fireAt(String fireKey) {
    return Long.parseLong(fireKey.substring(fireKey.lastIndexOf(' ') + 1));
  }

  /** Reads fire tasks on {@code <ns>.tasks} and their dispatches on the handler topic. */
  private void watch() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, run.stack.bootstrapServers());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    try (KafkaConsumer<String, byte[]> c =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (String t : List.of(topics.tasks(), topics.handler(handler))) {
        c.partitionsFor(t, Duration.ofSeconds(30))
            .forEach(i -> parts.add(new TopicPartition(t, i.partition())));
      }
      c.assign(parts);
      c.seekToEnd(parts);
      parts.forEach(c::position);
      while (watching) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(100))) {
          try {
            if (r.topic().equals(topics.tasks())) {
              onTask(r);
            } else {
              onDispatch(WireCodec.decodeDispatch(r.value()));
            }
          } catch (RuntimeException e) {
            // not a task or a dispatch (a schedule definition, a notice): not a fire
          }
        }
      }
    }
  }

  private void onTask(ConsumerRecord<String, byte[]> r) {
    if (r.value() == null) {
      return;
    }
    TaskTopicRecord t = WireCodec.decodeTaskRecord(r.value());
    if (t instanceof TaskEnvelope e
        && e.headers() != null
        && e.headers().containsKey(HEADER_SCHEDULE)
        && inWindow(e.dueAt())) {
      String key = e.headers().get(HEADER_SCHEDULE) + " " + e.dueAt();
      emitted.putIfAbsent(key, e.createdAt() > 0 ? e.createdAt() : r.timestamp());
    }
  }

  private void onDispatch(Dispatch d) {
    TaskEnvelope e = d.task();
    if (e.headers() == null || e.headers().get(HEADER_SCHEDULE) == null) {
      return;
    }
    long at = Long.parseLong(e.headers().get(HEADER_FIRE_TIME));
    if (!inWindow(at)) {
      return;
    }
    String key = e.headers().get(HEADER_SCHEDULE) + " " + at;
    if (!idsByFire.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(d.id())) {
      redispatches.incrementAndGet();
    }
    if (d.dispatchedAt() < at) {
      early.incrementAndGet();
    }
    dispatched.putIfAbsent(key, d.dispatchedAt());
  }

  private boolean inWindow(long fireAt) {
    return fireAt >= windowStart && fireAt < windowEnd;
  }

  private KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, run.stack.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  /** How many schedules the scheduler lists (paging {@code GET /api/schedules}), or -1. */
  private long listed() {
    long count = 0;
    String cursor = null;
    try {
      do {
        HttpRequest req =
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + run.schedulerPort
                            + "/api/schedules?limit=500"
                            + (cursor == null ? "" : "&cursor=" + cursor)))
                .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() != 200) {
          return -1;
        }
        var page = WireCodec.readTree(resp.body());
        count += page.path("schedules").size();
        cursor = page.path("nextCursor").isTextual() ? page.get("nextCursor").asText() : null;
      } while (cursor != null);
      TimeUnit.MILLISECONDS.sleep(500);
      return count;
    } catch (Exception e) {
      return -1;
    }
  }
}
