package io.tasklane.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.bench.LaneHandler;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;

/**
 * The lanes scenario, on workers of its own ({@link Recipes#laneWorker}, the {@link LaneHandler}s,
 * each call's start and end appended to an events file per worker) while the no-op worker idles:
 *
 * <ul>
 *   <li>(a) ordered lanes: {@code lanesKeys} ordering keys × {@value #PER_KEY} tasks, about one in
 *       ten failing its first attempt (a retry 100 ms later). From the events, in the order the
 *       worker wrote them: a start of a key's task while another of the key runs is an overlap; a
 *       start of place s while the key's last finished place is not s − 1 is an out-of-order start
 *       (a failing task holds its lane through its retries, so its retry comes before the next
 *       place). The throughput (first commit → last SUCCEEDED result) against the same tasks
 *       without keys, timed the same way just before.
 *   <li>(b) fairness: {@value #QUIET_KEYS} quiet concurrency keys at {@value #QUIET_RATE} tasks/s
 *       each, commit → handler start, first alone, then while one busy key's backlog of {@code
 *       lanesBacklog} tasks saturates the handler (enqueued with the handler paused, so that the
 *       whole backlog is in the scheduler, then resumed as the quiet load starts); the ratio of the
 *       two p99. The scenario waits for the backlog to drain before it goes on.
 *   <li>(c) limit per key: {@code maxPerKey} {@value #MAX_PER_KEY} set through {@code POST
 *       /api/handlers/{name}/lanes}, {@value #LIMIT_KEYS} concurrency keys of {@value
 *       #LIMIT_SLEEP_MS} ms tasks over two workers, the first killed with {@code kill -9} when a
 *       third of the tasks succeeded. From the two workers' events merged by time (a call the
 *       killed worker had not ended ends at the kill): the most calls of one key running at once,
 *       and the tasks that never succeeded.
 * </ul>
 *
 * Runs on the bench thread; the loads run on their own threads. Stops its workers, also on failure.
 */
final class LanesScenario {
  static final int PER_KEY = 20;
  static final int QUIET_KEYS = 50;
  static final int QUIET_RATE = 10;
  static final int MAX_PER_KEY = 3;
  static final int LIMIT_KEYS = 4;
  static final long LIMIT_SLEEP_MS = 200;
  private static final int THREADS = 4;

  private final BenchRun run;
  private final BenchOptions o;
  private final Results r;
  private final Topics topics;
  private final HandlerAdmin api;

  LanesScenario(BenchRun run, Topics topics) {
    this.run = run;
    this.o = run.options;
    this.r = run.results;
    this.topics = topics;
    this.api = new HandlerAdmin(run);
  }

  void run() throws Exception {
    Path dir = run.apps.logs().resolve("lanes-" + System.currentTimeMillis());
    Files.createDirectories(dir);
    Path events1 = dir.resolve("worker-lanes-1.events");
    Path events2 = dir.resolve("worker-lanes-2.events");
    JavaProcess w1 = run.track(Recipes.laneWorker(run.apps, "worker-lanes-1", events1).start());
    JavaProcess w2 = null;
    try {
      api.awaitTopics(
          w1, List.of(topics.handler(LaneHandler.NAME), topics.handler(LaneHandler.LIMITED)));
      ordered(w1, events1);
      fairness(w1);
      w2 = run.track(Recipes.laneWorker(run.apps, "worker-lanes-2", events2).start());
      limit(w1, w2, events1, events2);
    } finally {
      w1.stop(Duration.ofSeconds(10));
      if (w2 != null) {
        w2.stop(Duration.ofSeconds(10));
      }
    }
  }

  // ---- (a) ordered lanes ----

  private void ordered(JavaProcess worker, Path events) throws Exception {
    int keys = Math.max(THREADS, o.lanesKeys() / THREADS * THREADS);
    long n = (long) keys * PER_KEY;
    int warmKeys = Math.max(THREADS, Math.min(keys, 2_000) / 10 / THREADS * THREADS);
    run.step(
        String.format(
            "lanes (a): %,d ordering keys × %d tasks, about 10%% failing once; warm-up first",
            keys, PER_KEY));
    timed("warm-up, no keys (not timed)", "warm", warmKeys, false, worker);
    timed("warm-up, ordered (not timed)", "warm-ordered", warmKeys, true, worker);
    double unkeyed = timed("the same tasks without keys", "unkeyed", keys, false, worker);
    double keyed = timed("ordered lanes", "ordered", keys, true, worker);
    TimeUnit.SECONDS.sleep(1); // the worker writes a call's end before its result
    OrderCheck c = checkOrder(events(Map.of(events, 0L), LaneHandler.NAME, "ordered"));
    r.put("lanes_ordered_keys", keys);
    r.put("lanes_ordered_tasks", n);
    r.put("lanes_unkeyed_tasks_per_s", unkeyed);
    r.put("lanes_ordered_tasks_per_s", keyed);
    r.put("lanes_ordered_share_of_unkeyed", unkeyed > 0 ? keyed / unkeyed : 0.0);
    r.put("lanes_ordered_out_of_order", c.outOfOrder);
    r.put("lanes_ordered_overlaps", c.overlaps);
    r.put("lanes_ordered_failed_attempts", c.failed);
    r.put("lanes_ordered_unfinished", n - c.finished);
    run.out.printf(
        "  ordered lanes: %.0f tasks/s (%.2f of %.0f without keys); out-of-order starts %d,"
            + " overlapping runs %d, failed first attempts %d, unfinished %d%n",
        keyed,
        unkeyed > 0 ? keyed / unkeyed : 0.0,
        unkeyed,
        c.outOfOrder,
        c.overlaps,
        c.failed,
        n - c.finished);
    c.examples.forEach(e -> run.out.println("  VIOLATION " + e));
  }

  /** Enqueues {@code keys} × {@value #PER_KEY} lane tasks; returns tasks/s end to end. */
  private double timed(String label, String group, int keys, boolean keyed, JavaProcess worker)
      throws Exception {
    long n = (long) keys * PER_KEY;
    long base = run.tap.succeeded();
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    long start = System.currentTimeMillis();
    // i → key i % keys, place i / keys; keys is a multiple of THREADS, so a key's tasks are all
    // on one enqueuing thread and commit in the order of their places
    Thread load =
        Scenarios.background(
            () -> e.strided(n, 100, THREADS, i -> orderedTask(group, keys, i, keyed), false));
    boolean done =
        run.progress(
            label,
            () ->
                String.format(
                    "committed %d, succeeded %d of %d",
                    e.enqueued(), run.tap.succeeded() - base, n),
            () -> run.tap.succeeded() - base >= n || dead(worker),
            Duration.ofSeconds(Math.max(180, n / 200)));
    load.join();
    long succeeded = run.tap.succeeded() - base;
    long end = done && succeeded >= n ? run.tap.lastResultTs() : System.currentTimeMillis();
    return succeeded * 1000.0 / Math.max(1, end - start);
  }

  private static TaskRequest orderedTask(String group, int keys, long i, boolean keyed) {
    int key = (int) (i % keys);
    int place = (int) (i / keys);
    boolean fail = new SplittableRandom(key * 1_000L + place).nextInt(10) == 0;
    TaskRequest t =
        TaskRequest.to(LaneHandler.NAME)
            .payload(Map.of("g", group, "k", "order-" + key, "s", place, "f", fail))
            .maxAttempts(3)
            .backoff(RetryPolicy.fixed(Duration.ofMillis(100)));
    return keyed ? t.orderingKey("order-" + key) : t;
  }

  private static final class OrderCheck {
    long outOfOrder;
    long overlaps;
    long failed;
    long finished;
    final List<String> examples = new ArrayList<>();
  }

  /** Walks the events of group "ordered" in order; see the class comment. */
  private static OrderCheck checkOrder(List<Event> events) {
    OrderCheck c = new OrderCheck();
    Map<String, int[]> lanes = new HashMap<>(); // key → {running, last finished place}
    Map<String, BitSet> done = new HashMap<>();
    for (Event e : events) {
      int[] lane = lanes.computeIfAbsent(e.key, k -> new int[] {0, -1});
      switch (e.kind) {
        case 'S' -> {
          if (lane[0] > 0) {
            c.overlaps++;
            example(c, "overlap: " + e + " while " + lane[0] + " ran");
          }
          if (e.place != lane[1] + 1) {
            c.outOfOrder++;
            example(c, "out of order: " + e + " after place " + lane[1] + " finished");
          }
          lane[0]++;
        }
        case 'E' -> {
          lane[0]--;
          lane[1] = e.place;
          done.computeIfAbsent(e.key, k -> new BitSet()).set(e.place);
        }
        default -> {
          lane[0]--;
          c.failed++;
        }
      }
    }
    done.values().forEach(b -> c.finished += b.cardinality());
    return c;
  }

  private static void example(OrderCheck c, String text) {
    if (c.examples.size() < 10) {
      c.examples.add(text);
    }
  }

  // ---- (b) fairness ----

  private void fairness(JavaProcess worker) throws Exception {
    int backlog = o.lanesBacklog();
    int seconds = o.quick() ? 10 : 30;
    run.step(
        String.format(
            "lanes (b): %d quiet concurrency keys at %d tasks/s each for %d s, alone, then beside"
                + " one key's backlog of %,d tasks",
            QUIET_KEYS, QUIET_RATE, seconds, backlog));
    // the same load first, not measured: the quiet keys' first tasks and the work (a) left behind
    // (its finished tasks' purge and store compactions) would otherwise land in the alone figure
    quiet("quiet load warm-up (not measured)", "quiet-warm", 10, worker);
    Histogram alone = quiet("quiet load alone", "quiet-alone", seconds, worker).starts();

    long base = run.tap.succeeded();
    boolean admitted =
        api.backlogPaused(
            "the busy key's backlog into the scheduler (handler paused)",
            LaneHandler.NAME,
            backlog,
            i ->
                TaskRequest.to(LaneHandler.NAME)
                    .payload(Map.of("g", "backlog", "r", false))
                    .concurrencyKey("busy"),
            worker);
    long queuedBefore = Probes.schedulerEvents(run.schedulerPort, "queued");
    api.resume(LaneHandler.NAME);
    StartLatency.Phase phase =
        quiet("quiet load beside the backlog", "quiet-busy", seconds, worker);
    Histogram busy = phase.starts();
    long backlogLeft = backlog - (phase.succeededWhenOffered() - base - phase.startedWhenOffered());
    long queued = Probes.schedulerEvents(run.schedulerPort, "queued") - queuedBefore;
    run.progress(
        "the rest of the backlog",
        () ->
            String.format(
                "succeeded %d of %d", run.tap.succeeded() - base - busy.getTotalCount(), backlog),
        () -> run.tap.succeeded() - base - busy.getTotalCount() >= backlog || dead(worker),
        Duration.ofSeconds(Math.max(300, backlog / 500)));
    long p99Alone = alone.getValueAtPercentile(99);
    long p99Busy = busy.getValueAtPercentile(99);
    double ratio = p99Busy / (double) Math.max(1, p99Alone);
    r.put("lanes_fairness_backlog_tasks", backlog);
    r.put("lanes_fairness_backlog_admitted", admitted);
    r.put("lanes_fairness_quiet_seconds", seconds);
    r.put("lanes_fairness_quiet_alone_p50_ms", alone.getValueAtPercentile(50));
    r.put("lanes_fairness_quiet_alone_p99_ms", p99Alone);
    r.put("lanes_fairness_quiet_busy_p50_ms", busy.getValueAtPercentile(50));
    r.put("lanes_fairness_quiet_busy_p99_ms", p99Busy);
    r.put("lanes_fairness_quiet_busy_max_ms", busy.getMaxValue());
    r.put("lanes_fairness_quiet_p99_ratio", ratio);
    r.put("lanes_fairness_backlog_left_after_quiet", backlogLeft);
    r.put("lanes_fairness_queued_events", queued);
    run.out.printf(
        "  quiet keys commit → handler start p99: %d ms alone, %d ms beside the backlog (%.2f×);"
            + " p50 %d → %d ms; backlog tasks still to run when the quiet load ended: %d%n",
        p99Alone,
        p99Busy,
        ratio,
        alone.getValueAtPercentile(50),
        busy.getValueAtPercentile(50),
        backlogLeft);
  }

  /**
   * Offers the quiet load for {@code seconds} and waits for its tasks to start ({@link
   * StartLatency}); records its attempts' mean times unless it is the warm-up.
   */
  private StartLatency.Phase quiet(String label, String group, int seconds, JavaProcess worker)
      throws Exception {
    LongFunction<TaskRequest> task =
        i ->
            TaskRequest.to(LaneHandler.NAME)
                .payload(Map.of("g", group, "r", false))
                .concurrencyKey("quiet-" + (i % QUIET_KEYS));
    StartLatency.Phase p =
        StartLatency.measure(
            run,
            label,
            QUIET_KEYS * QUIET_RATE,
            seconds,
            task,
            worker,
            Duration.ofSeconds(Math.max(120, o.lanesBacklog() / 2_000)));
    // every attempt of the handler meanwhile (the backlog's too): how long one is out, and how
    // much of that is spent on the way rather than in the handler (the pipeline a task waits in)
    String k = "lanes_fairness_" + group.replace('-', '_');
    if (!group.equals("quiet-warm")) {
      r.put(k + "_attempt_round_trip_mean_ms", p.roundTripMeanMs());
      r.put(k + "_attempt_on_the_way_mean_ms", p.onTheWayMeanMs());
    }
    return p;
  }

  // ---- (c) limit per key ----

  private void limit(JavaProcess first, JavaProcess second, Path events1, Path events2)
      throws Exception {
    int perKey = o.quick() ? 100 : 300;
    long n = (long) LIMIT_KEYS * perKey;
    run.step(
        String.format(
            "lanes (c): maxPerKey %d through the API, %d keys × %d tasks of %d ms over two"
                + " workers, kill -9 of one when a third succeeded",
            MAX_PER_KEY, LIMIT_KEYS, perKey, LIMIT_SLEEP_MS));
    api.post("/api/handlers/" + LaneHandler.LIMITED + "/lanes?maxPerKey=" + MAX_PER_KEY);
    JsonNode view = WireCodec.readTree(api.get("/api/handlers/" + LaneHandler.LIMITED + "/lanes"));
    int shown = view.path("maxPerKey").asInt(-1);
    run.out.println("  GET /api/handlers/" + LaneHandler.LIMITED + "/lanes: maxPerKey " + shown);

    Map<Path, Long> from = ends(events1, events2);
    // warm-up until both workers have run tasks of the handler: its group has both members
    Enqueuer warm = new Enqueuer(run.url, run.db.user(), run.db.password());
    long[] warmed = {0};
    run.progress(
        "starting worker-lanes-2, warm-up through both workers",
        () -> warm.enqueued() + " warm-up tasks",
        () -> {
          if (dead(first) || dead(second)) {
            return true;
          }
          if (ran(from, events1, "limit-warm") && ran(from, events2, "limit-warm")) {
            return true;
          }
          try {
            warm.strided(
                20,
                20,
                1,
                i ->
                    TaskRequest.to(LaneHandler.LIMITED)
                        .payload(Map.of("g", "limit-warm", "k", "w", "s", warmed[0]++, "ms", 10))
                        .concurrencyKey("warm-" + (i % 8)),
                false);
            TimeUnit.MILLISECONDS.sleep(500);
          } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
          }
          return false;
        },
        Duration.ofSeconds(180));
    long warmTasks = warm.enqueued();
    run.progress(
        "warm-up tasks",
        () -> "waiting for them",
        () -> ended(from, "limit-warm") >= warmTasks || dead(second),
        Duration.ofSeconds(60));

    long base = run.tap.succeeded();
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    Thread load =
        Scenarios.background(
            () ->
                e.strided(
                    n,
                    20,
                    THREADS,
                    i ->
                        TaskRequest.to(LaneHandler.LIMITED)
                            .payload(
                                Map.of(
                                    "g",
                                    "limit",
                                    "k",
                                    "tenant-" + (i % LIMIT_KEYS),
                                    "s",
                                    i / LIMIT_KEYS,
                                    "ms",
                                    LIMIT_SLEEP_MS))
                            .concurrencyKey("tenant-" + (i % LIMIT_KEYS)),
                    false));
    long[] killAt = {0};
    boolean done =
        run.progress(
            "tasks of " + LIMIT_KEYS + " keys, kill -9 worker-lanes-1 at a third",
            () ->
                String.format(
                    "committed %d, succeeded %d of %d%s",
                    e.enqueued(),
                    run.tap.succeeded() - base,
                    n,
                    killAt[0] != 0 ? ", worker-lanes-1 killed" : ""),
            () -> {
              if (killAt[0] == 0 && run.tap.succeeded() - base >= n / 3) {
                first.kill9();
                killAt[0] = System.nanoTime();
              }
              return run.tap.succeeded() - base >= n || dead(second);
            },
            Duration.ofSeconds(Math.max(180, n * LIMIT_SLEEP_MS / 1000 / 2)));
    load.join();
    TimeUnit.SECONDS.sleep(1);
    List<Event> ev = events(from, LaneHandler.LIMITED, "limit");
    long[] most = mostRunning(ev, events1, killAt[0]);
    Map<String, BitSet> finished = new HashMap<>();
    for (Event x : ev) {
      if (x.kind == 'E') {
        finished.computeIfAbsent(x.key, k -> new BitSet()).set(x.place);
      }
    }
    long fin = finished.values().stream().mapToLong(BitSet::cardinality).sum();
    // starts of a call (key, place, attempt) that had already ended on a worker: dispatches
    // redelivered to the other worker after the kill (the handler runs again; not counted above
    // once the task had finished)
    java.util.Set<String> ended = new java.util.HashSet<>();
    long reruns = 0;
    for (Event x : ev) {
      String call = x.key + " " + x.place + " " + x.attempt;
      if (x.kind == 'S' && ended.contains(call)) {
        reruns++;
      } else if (x.kind != 'S') {
        ended.add(call);
      }
    }
    long succeeded = run.tap.succeeded() - base;
    r.put("lanes_limit_tasks", n);
    r.put("lanes_limit_max_per_key_set", shown);
    r.put("lanes_limit_max_running", most[0]);
    r.put("lanes_limit_over_limit_starts", most[1]);
    r.put("lanes_limit_killed_calls", most[2]);
    r.put("lanes_limit_reruns_of_ended_calls", reruns);
    r.put("lanes_limit_unfinished", n - fin);
    r.put("lanes_limit_all_finished", done && fin == n && succeeded >= n);
    run.out.printf(
        "  limit per key %d: at most %d tasks of one key ran at once (%d starts above the limit);"
            + " %d calls cut by the kill; %d starts of calls that had already ended (redelivered);"
            + " %d of %d tasks finished%n",
        MAX_PER_KEY, most[0], most[1], most[2], reruns, fin, n);
  }

  /**
   * From {@code events} merged by time: {the most calls of one key running at once, starts that
   * made a key run more than {@value #MAX_PER_KEY}, calls of {@code killed} that never ended (they
   * end at {@code killAt})}.
   */
  private long[] mostRunning(List<Event> events, Path killed, long killAt) {
    Map<String, Event> open = new HashMap<>();
    List<Event> all = new ArrayList<>(events);
    for (Event e : events) {
      String id = e.file + " " + e.key + " " + e.place + " " + e.attempt;
      if (e.kind == 'S') {
        open.put(id, e);
      } else {
        open.remove(id);
      }
    }
    long cut = 0;
    for (Event s : open.values()) {
      if (s.file.equals(killed) && killAt != 0) {
        all.add(new Event('F', killAt, s.file, s.key, s.place, s.attempt));
        cut++;
      }
    }
    all.sort(Event.ORDER);
    // per key, the tasks (places) running now with their calls; a start of a task that had
    // already finished is a redelivered dispatch (an idempotent handler skips it): not counted
    Map<String, Map<Integer, Integer>> running = new HashMap<>();
    java.util.Set<String> finished = new java.util.HashSet<>();
    java.util.Set<String> redelivered = new java.util.HashSet<>();
    long most = 0;
    long over = 0;
    for (Event e : all) {
      String task = e.key + " " + e.place;
      String call = e.file + " " + task + " " + e.attempt;
      Map<Integer, Integer> key = running.computeIfAbsent(e.key, k -> new HashMap<>());
      if (e.kind == 'S') {
        if (finished.contains(task)) {
          redelivered.add(call);
          continue;
        }
        key.merge(e.place, 1, Integer::sum);
        int now = key.size();
        most = Math.max(most, now);
        if (now > MAX_PER_KEY) {
          over++;
          if (over <= 10) {
            run.out.println("  VIOLATION " + now + " tasks of " + e.key + " running at " + e);
          }
        }
      } else {
        if (redelivered.remove(call)) {
          continue;
        }
        key.computeIfPresent(e.place, (p, c) -> c > 1 ? c - 1 : null);
        if (e.kind == 'E') {
          finished.add(task);
        }
      }
    }
    return new long[] {most, over, cut};
  }

  private static boolean ran(Map<Path, Long> from, Path events, String group) {
    try {
      return !events(Map.of(events, from.get(events)), LaneHandler.LIMITED, group).isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  private static long ended(Map<Path, Long> from, String group) {
    try {
      return events(from, LaneHandler.LIMITED, group).stream().filter(e -> e.kind == 'E').count();
    } catch (IOException e) {
      return 0;
    }
  }

  // ---- events, workers, API ----

  /** One line of a worker's events file. */
  record Event(char kind, long nanos, Path file, String key, int place, int attempt) {
    /** By time; at the same time an end before a start. */
    static final Comparator<Event> ORDER =
        Comparator.comparingLong(Event::nanos).thenComparing(e -> e.kind == 'S' ? 1 : 0);

    @Override
    public String toString() {
      return kind + " " + key + " place " + place + " attempt " + attempt + " at " + nanos + " ns";
    }
  }

  /**
   * The events of {@code handler} and {@code group} in the files of {@code from}, each read from
   * its offset, by time (a file's own order kept at equal times).
   */
  static List<Event> events(Map<Path, Long> from, String handler, String group) throws IOException {
    List<Event> out = new ArrayList<>();
    for (Map.Entry<Path, Long> f : from.entrySet()) {
      if (!Files.exists(f.getKey())) {
        continue;
      }
      try (SeekableByteChannel ch = Files.newByteChannel(f.getKey());
          BufferedReader in =
              new BufferedReader(
                  new InputStreamReader(
                      Channels.newInputStream(ch.position(f.getValue())),
                      StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          String[] p = line.split(" ");
          if (p.length == 7 && p[2].equals(handler) && p[3].equals(group)) {
            try {
              out.add(
                  new Event(
                      p[0].charAt(0),
                      Long.parseLong(p[1]),
                      f.getKey(),
                      p[4],
                      Integer.parseInt(p[5]),
                      Integer.parseInt(p[6])));
            } catch (NumberFormatException e) {
              // a line cut at the offset: not an event of this read
            }
          }
        }
      }
    }
    out.sort(Event.ORDER); // stable: a file's own order at equal times
    return out;
  }

  /** Each file's size now (0 for one not yet written), by file, in the given order. */
  private static Map<Path, Long> ends(Path... files) throws IOException {
    Map<Path, Long> m = new LinkedHashMap<>();
    for (Path f : files) {
      m.put(f, Files.exists(f) ? Files.size(f) : 0L);
    }
    return m;
  }

  private static boolean dead(JavaProcess worker) {
    return HandlerAdmin.dead(worker);
  }
}
