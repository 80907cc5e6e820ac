package io.tasklane.bench.internal;

import io.tasklane.bench.LaneHandler;
import io.tasklane.core.Topics;
import io.tasklane.harness.FreePorts;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The rate-limit scenario: a limit of {@value #RATE} starts a second, burst {@value #BURST} ({@code
 * limits.}{@value #LIMIT}{@code .rate}, set on every bench scheduler by {@link Recipes#scheduler}),
 * held by two scheduler instances (the run's and one started here) while a backlog of tasks naming
 * it, nine in ten of them on one concurrency key (so in one partition), the rest spread by their
 * ids, keeps the limit saturated for the measured window. From the worker's own record of each
 * call's start ({@link LaneHandler}, handler {@value LaneHandler#NAME}, group {@code rate}): the
 * starts in each whole second of the window, their mean, least and most, the most in any sliding
 * second, and whether every whole second was within 5 % of the rate.
 *
 * <p>Runs on the bench thread; the load runs on its own threads. Stops its worker and its second
 * scheduler, also on failure.
 */
final class RateLimitScenario {
  static final String LIMIT = "bench-rate";
  static final int RATE = 100;
  static final int BURST = 10;

  /**
   * Seconds from the first start left out of the window: the backlog is committed at once, and
   * while the relay and the schedulers admit thousands of tasks a second, answers reach the asking
   * tasks late and the limit's owner raises its lead (docs/rate-limits.md). Reported apart.
   */
  static final int ADMISSION_S = 10;

  private final BenchRun run;
  private final BenchOptions o;
  private final Results r;
  private final Topics topics;

  RateLimitScenario(BenchRun run, Topics topics) {
    this.run = run;
    this.o = run.options;
    this.r = run.results;
    this.topics = topics;
  }

  void run() throws Exception {
    Path dir = run.apps.logs().resolve("ratelimit-" + System.currentTimeMillis());
    Files.createDirectories(dir);
    Path events = dir.resolve("worker-rate.events");
    int port2 = FreePorts.next();
    JavaProcess second = run.track(Recipes.scheduler(run.apps, "scheduler-rate", port2).start());
    JavaProcess worker = null;
    try {
      HttpClient http = HttpClient.newHttpClient();
      run.progress(
          "starting scheduler-rate (a second instance)",
          () -> "waiting for /health UP",
          () -> Failover.healthy(http, port2, second),
          Duration.ofSeconds(120));
      worker = run.track(Recipes.laneWorker(run.apps, "worker-rate", events).start());
      new HandlerAdmin(run).awaitTopics(worker, List.of(topics.handler(LaneHandler.NAME)));
      load("warm-up through both instances (not measured)", "rate-warm", RATE * 3L, events);
      long[] before = events(port2);
      measure(events);
      long[] after = events(port2);
      for (int i = 0; i < EVENTS.size(); i++) {
        r.put("ratelimit_events_" + EVENTS.get(i).replace('.', '_'), after[i] - before[i]);
      }
      r.put(
          "ratelimit_asks_per_task",
          (after[0] - before[0]) / ((Number) r.get("ratelimit_tasks")).doubleValue());
    } finally {
      if (worker != null) {
        worker.stop(Duration.ofSeconds(10));
      }
      second.stop(Duration.ofSeconds(20));
    }
  }

  private void measure(Path events) throws Exception {
    int seconds = o.quick() ? 20 : 60;
    // the limit stays saturated through the admission and the window, and 1,000 tasks after
    long n = (long) RATE * (ADMISSION_S + seconds) + RATE * 10L;
    run.step(
        String.format(
            "ratelimit: %,d tasks naming a %d/s limit (burst %d), 90 %% on one concurrency key, two"
                + " scheduler instances; starts counted over %d s after the first %d s",
            n, RATE, BURST, seconds, ADMISSION_S));
    long[] starts = load("the rate-limited backlog", "rate", n, events);
    long from = starts[0] + ADMISSION_S * 1_000_000_000L;
    int[] perSecond = new int[seconds];
    int admission = 0;
    int admissionLeast = Integer.MAX_VALUE;
    int[] admissionSeconds = new int[ADMISSION_S];
    for (long s : starts) {
      if (s < from) {
        admission++;
        admissionSeconds[(int) ((s - starts[0]) / 1_000_000_000L)]++;
        continue;
      }
      long sec = (s - from) / 1_000_000_000L;
      if (sec < seconds) {
        perSecond[(int) sec]++;
      }
    }
    for (int c : admissionSeconds) {
      admissionLeast = Math.min(admissionLeast, c);
    }
    int least = Integer.MAX_VALUE;
    int most = 0;
    long sum = 0;
    boolean within = true;
    for (int c : perSecond) {
      least = Math.min(least, c);
      most = Math.max(most, c);
      sum += c;
      within &= Math.abs(c - RATE) <= RATE * 0.05;
    }
    int sliding = mostInASecond(starts, from, from + seconds * 1_000_000_000L);
    int slidingAll = mostInASecond(starts, Long.MIN_VALUE, Long.MAX_VALUE);
    double mean = sum / (double) seconds;
    r.put("ratelimit_rate_per_s", RATE);
    r.put("ratelimit_burst", BURST);
    r.put("ratelimit_schedulers", 2);
    r.put("ratelimit_hot_share", 0.9);
    r.put("ratelimit_seconds", seconds);
    r.put("ratelimit_tasks", n);
    r.put("ratelimit_mean_per_s", mean);
    r.put("ratelimit_least_per_s", least);
    r.put("ratelimit_most_per_s", most);
    r.put("ratelimit_most_in_any_second", sliding);
    r.put("ratelimit_most_in_any_second_whole_run", slidingAll);
    r.put("ratelimit_admission_s", ADMISSION_S);
    r.put("ratelimit_admission_starts", admission);
    r.put("ratelimit_admission_least_per_s", admissionLeast);
    r.put("ratelimit_seconds_within_5pct", within);
    run.out.printf(
        "  starts a second over %d s: mean %.1f, least %d, most %d (limit %d, burst %d); the most"
            + " in any sliding second %d (%d over the whole run); every second within 5 %%: %s;"
            + " the first %d s: %d starts, least %d in a second%n",
        seconds,
        mean,
        least,
        most,
        RATE,
        BURST,
        sliding,
        slidingAll,
        within,
        ADMISSION_S,
        admission,
        admissionLeast);
  }

  /**
   * Enqueues {@code n} tasks of {@code group} naming the limit and waits until the worker started
   * them all; returns their starts (worker nanoTime), sorted.
   */
  private long[] load(String label, String group, long n, Path events) throws Exception {
    Map<Path, Long> from = Map.of(events, Files.exists(events) ? Files.size(events) : 0L);
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    Thread t =
        Scenarios.background(
            () -> e.strided(n, 100, HandlerAdmin.THREADS, i -> task(group, i), false));
    long[] started = {0};
    long[] checked = {0};
    boolean done =
        run.progress(
            label,
            () -> String.format("committed %d, started %d of %d", e.enqueued(), started[0], n),
            () -> {
              if (System.currentTimeMillis() - checked[0] >= 1_000) {
                checked[0] = System.currentTimeMillis();
                started[0] = starts(from, group).length;
              }
              return !t.isAlive() && started[0] >= n;
            },
            Duration.ofSeconds(n / RATE + 180));
    t.join();
    if (!done) {
      throw new IllegalStateException(label + ": " + started[0] + " of " + n + " started");
    }
    return starts(from, group);
  }

  private static long[] starts(Map<Path, Long> from, String group) {
    try {
      // a task's first start, whatever its attempt: one sent back late for its slot (SLOT_MISSED)
      // never ran, and starts as its next attempt
      Map<String, Long> first = new java.util.HashMap<>();
      for (LanesScenario.Event x : LanesScenario.events(from, LaneHandler.NAME, group)) {
        if (x.kind() == 'S') {
          first.merge(x.key() + "#" + x.place(), x.nanos(), Math::min);
        }
      }
      return first.values().stream().mapToLong(Long::longValue).sorted().toArray();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The most of {@code starts} (sorted) within [from, until) in any sliding second. */
  private static int mostInASecond(long[] starts, long from, long until) {
    int most = 0;
    int j = 0;
    for (int i = 0; i < starts.length; i++) {
      if (starts[i] < from || starts[i] >= until) {
        continue;
      }
      while (starts[j] < from || starts[i] - starts[j] >= 1_000_000_000L) {
        j++;
      }
      most = Math.max(most, i - j + 1);
    }
    return most;
  }

  /** The scheduler events of rate limits, summed over both instances. */
  static final List<String> EVENTS =
      List.of("rate.asked", "rate.granted", "rate.later", "rate.late", "rate.stale", "rate.missed");

  private long[] events(int port2) throws Exception {
    long[] out = new long[EVENTS.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] =
          Probes.schedulerEvents(run.schedulerPort, EVENTS.get(i))
              + Probes.schedulerEvents(port2, EVENTS.get(i));
    }
    return out;
  }

  private static TaskRequest task(String group, long i) {
    TaskRequest t =
        TaskRequest.to(LaneHandler.NAME)
            .payload(Map.of("g", group, "k", "k" + (i % 10), "s", i))
            .rateLimit(LIMIT);
    return i % 10 == 0 ? t : t.concurrencyKey("hot");
  }
}
