package io.tasklane.bench.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.Topics;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The {@code schedules} scenario, in three parts run one after the other, each writing its own
 * keys: (a) <b>fire</b>: {@code schedules} schedules firing every second through the whole
 * pipeline, fire lateness = handler start ({@code TaskResult.startedAt}) − fire instant, duplicate
 * and early fires, fires missing against the calendar; (b) <b>emit</b>: ten times as many schedules
 * firing every second on a handler no worker consumes, the scheduler alone (restarted with {@code
 * max-dispatched} above the fires so that flow control does not hold them; the worker stopped),
 * emit lateness = the dispatch record's timestamp − fire instant; (c) <b>held</b>: many daily
 * schedules (one in 100 hourly) defined and held, {@code schedules_held} and the scheduler's RSS.
 * Every part deletes its schedules. Runs on the bench thread; the watch has its own.
 */
final class ScheduleLoad {
  private static final String EMIT_HANDLER = "emit";

  private final BenchRun run;
  private final Topics topics;
  private final HttpClient http = HttpClient.newHttpClient();

  ScheduleLoad(BenchRun run, Topics topics) {
    this.run = run;
    this.topics = topics;
  }

  void run() throws Exception {
    fire();
    emit();
    held();
  }

  /** (a) through the whole pipeline: lateness to the handler's start. */
  private void fire() throws Exception {
    int n = run.options.schedules();
    int secs = run.options.scheduleSeconds();
    run.step("schedules (a): " + n + " schedules every 1 s for " + secs + " s, end to end");
    List<ScheduleDefinition> defs = defs("bench.fire.", n, "noop", i -> "1s");
    define(defs, n);
    long start = System.currentTimeMillis() + 5_000;
    long end = start + secs * 1000L;
    Histogram lateness = Results.histogram();
    long early = 0;
    int fires;
    long duplicates;
    try (FireWatch watch = new FireWatch(bootstrap(), topics.handler("noop"), start, end)) {
      run.progress(
          "watching fires for " + secs + " s",
          () -> watch.size() + " fires dispatched",
          () -> System.currentTimeMillis() > end + 10_000,
          Duration.ofSeconds(secs + 60L));
      watch.close();
      fires = watch.size();
      duplicates = watch.duplicates();
      long missingStart = 0;
      for (FireWatch.Fire f : watch.fires()) {
        Long started = run.tap.startOf(f.taskId());
        if (started == null) {
          missingStart++;
          continue;
        }
        early += started < f.fireAt() || f.dispatchedAt() < f.fireAt() ? 1 : 0;
        lateness.recordValue(Math.max(0, started - f.fireAt()));
      }
      run.results.put("schedule_fires_not_started", missingStart);
    }
    undefine(defs);
    long expected = (long) n * secs;
    Results r = run.results;
    r.put("schedule_fire_lateness_p50_ms", lateness.getValueAtPercentile(50));
    r.put("schedule_fire_lateness_p99_ms", lateness.getValueAtPercentile(99));
    r.put("schedule_fire_lateness_max_ms", lateness.getMaxValue());
    r.put("schedule_duplicate_fires", duplicates);
    r.put("schedule_early_fires", early);
    r.put("schedule_fires", fires);
    r.put("schedule_missing_fires", Math.max(0, expected - fires));
    run.out.printf(
        "  (a) %d schedules: %d fires in %d s (%d expected); fire → handler start p50 %d ms, p99"
            + " %d ms, max %d ms; duplicates %d, early %d%n",
        n,
        fires,
        secs,
        expected,
        lateness.getValueAtPercentile(50),
        lateness.getValueAtPercentile(99),
        lateness.getMaxValue(),
        duplicates,
        early);
  }

  /** (b) the scheduler alone: lateness of the dispatch record. */
  private void emit() throws Exception {
    int n = run.options.schedules() * 10;
    int secs = run.options.scheduleSeconds();
    run.step("schedules (b): " + n + " schedules every 1 s for " + secs + " s, scheduler only");
    createTopic(topics.handler(EMIT_HANDLER));
    run.worker.stop(Duration.ofSeconds(10));
    restartScheduler("scheduler-emit", true);
    List<ScheduleDefinition> defs = defs("bench.emit.", n, EMIT_HANDLER, i -> "1s");
    define(defs, n);
    long start = System.currentTimeMillis() + 5_000;
    long end = start + secs * 1000L;
    Histogram lateness = Results.histogram();
    try (FireWatch watch = new FireWatch(bootstrap(), topics.handler(EMIT_HANDLER), start, end)) {
      run.progress(
          "watching dispatches for " + secs + " s",
          () -> watch.size() + " fires dispatched",
          () -> System.currentTimeMillis() > end + 10_000,
          Duration.ofSeconds(secs + 60L));
      watch.close();
      watch.fires().forEach(f -> lateness.recordValue(Math.max(0, f.dispatchedAt() - f.fireAt())));
      run.results.put("schedule_emit_fires", watch.size());
      run.results.put("schedule_emit_duplicate_fires", watch.duplicates());
    }
    undefine(defs);
    restartScheduler("scheduler-after-emit", false);
    run.worker = run.track(Recipes.worker(run.apps, "worker-after-emit").start());
    Results r = run.results;
    r.put("schedule_emit_lateness_p50_ms", lateness.getValueAtPercentile(50));
    r.put("schedule_emit_lateness_p99_ms", lateness.getValueAtPercentile(99));
    r.put("schedule_emit_lateness_max_ms", lateness.getMaxValue());
    run.out.printf(
        "  (b) %d schedules: %d fires dispatched in %d s (%d expected); fire → dispatch p50 %d ms,"
            + " p99 %d ms, max %d ms%n",
        n,
        lateness.getTotalCount(),
        secs,
        (long) n * secs,
        lateness.getValueAtPercentile(50),
        lateness.getValueAtPercentile(99),
        lateness.getMaxValue());
  }

  /** (c) many daily schedules held: count and the scheduler's RSS. */
  private void held() throws Exception {
    int n = run.options.quick() ? 20_000 : 1_000_000;
    run.step("schedules (c): " + n + " schedules held (daily, one in 100 hourly)");
    List<ScheduleDefinition> defs =
        defs("bench.held.", n, "noop", i -> i % 100 == 0 ? "1h" : "24h");
    long held = define(defs, n);
    double rss = Probes.rssMb(run.scheduler.pid());
    run.results.put("schedules_held", held);
    run.results.put("schedules_rss_mb", rss);
    run.out.printf("  (c) %d of %d schedules held; scheduler RSS %.0f MiB%n", held, n, rss);
    undefine(defs);
  }

  private interface Period {
    String of(int i);
  }

  private static List<ScheduleDefinition> defs(String prefix, int n, String handler, Period p) {
    List<ScheduleDefinition> defs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      defs.add(
          ScheduleDefinition.builder()
              .name(prefix + i)
              .version(1)
              .handler(handler)
              .every(p.of(i))
              .build());
    }
    return defs;
  }

  /** Sends the definitions and waits until the scheduler lists at least {@code n} schedules. */
  private long define(List<ScheduleDefinition> defs, int n) throws InterruptedException {
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (ScheduleDefinition d : defs) {
        producer.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(d)));
      }
      producer.flush();
    }
    AtomicLong held = new AtomicLong();
    run.progress(
        "defining " + n + " schedules",
        () -> held.get() + "/" + n + " held",
        () -> {
          held.set(listed());
          return held.get() >= n;
        },
        Duration.ofSeconds(Math.max(120, n / 100)));
    return held.get();
  }

  private void undefine(List<ScheduleDefinition> defs) {
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (ScheduleDefinition d : defs) {
        Unschedule u = Unschedule.of(d.name(), d.version(), System.currentTimeMillis());
        producer.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(u)));
      }
      producer.flush();
    }
  }

  /**
   * Replaces the scheduler with a new instance (the stores restored from their changelogs); {@code
   * uncapped}: {@code max-dispatched} high enough that no fire waits for a slot without a worker.
   */
  private void restartScheduler(String name, boolean uncapped) throws InterruptedException {
    run.scheduler.stop(Duration.ofSeconds(30));
    int port = FreePorts.next();
    JavaProcess.Builder b = Recipes.scheduler(run.apps, name, port);
    if (uncapped) {
      b.sysProp("tasklane.scheduler.max-dispatched", "1000000");
    }
    run.scheduler = run.track(b.start());
    run.schedulerPort = port;
    run.progress(
        "starting " + name,
        () -> "waiting for the API",
        () -> {
          if (!run.scheduler.isAlive()) {
            throw new IllegalStateException(name + " died:\n" + run.scheduler.logTail(30));
          }
          return listed() >= 0;
        },
        Duration.ofSeconds(180));
  }

  private void createTopic(String topic) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    try (Admin admin = Admin.create(p)) {
      if (!admin.listTopics().names().get().contains(topic)) {
        admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
      }
    }
  }

  private String bootstrap() {
    return run.stack.bootstrapServers();
  }

  private KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
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
