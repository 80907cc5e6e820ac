package io.tasklane.bench.internal;

import io.tasklane.harness.TasklaneApps;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads process and scheduler figures: RSS from /proc, heap via jcmd, the pending-task gauge. */
public final class Probes {
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Probes() {}

  /** VmRSS of {@code pid} in MiB, or -1. */
  public static double rssMb(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException | RuntimeException e) {
      // process gone
    }
    return -1;
  }

  /**
   * Used Java heap of {@code pid} in MiB after a full GC (jcmd GC.run, then GC.heap_info), or -1.
   */
  public static double heapUsedMb(long pid, boolean fullGc) {
    try {
      if (fullGc) {
        jcmd(pid, "GC.run");
      }
      Matcher m = HEAP_USED.matcher(jcmd(pid, "GC.heap_info"));
      return m.find() ? Long.parseLong(m.group(1)) / 1024.0 : -1;
    } catch (IOException | InterruptedException e) {
      return -1;
    }
  }

  private static String jcmd(long pid, String cmd) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(jcmd.toString(), String.valueOf(pid), cmd)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }

  /**
   * Sum of {@code tasklane_scheduler_tasks{state="<state>"}} on the scheduler at {@code port}, or
   * -1.
   */
  public static long schedulerTasks(int port, String state) {
    return prometheusSum(port, "tasklane_scheduler_tasks{", "state=\"" + state + "\"");
  }

  /**
   * The scheduler's PENDING count once the work of earlier scenarios has settled: no attempt out
   * and the same PENDING count in two samples a second apart (a backlog still draining, such as the
   * tasks the relay-alone measure left for the restarted scheduler, would leave PENDING while a
   * scenario counts its own tasks in). Gives up after {@code timeout} and returns the last count.
   */
  public static long settledPending(int port, Duration timeout) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    long last = schedulerTasks(port, "PENDING");
    while (System.currentTimeMillis() < deadline) {
      TimeUnit.SECONDS.sleep(1);
      long now = schedulerTasks(port, "PENDING");
      if (now == last && schedulerTasks(port, "DISPATCHED") == 0) {
        return Math.max(0, now);
      }
      last = now;
    }
    return Math.max(0, last);
  }

  /**
   * {@code tasklane_scheduler_events_total{event="<event>"}} of the scheduler at {@code port} since
   * it started (0 before the first), or -1 when it does not answer.
   */
  public static long schedulerEvents(int port, String event) {
    return schedulerEvents(port, new String[] {event})[0];
  }

  /**
   * As {@link #schedulerEvents(int, String)}, for each of {@code events}, from one scrape; all -1
   * when the scheduler does not answer.
   */
  public static long[] schedulerEvents(int port, String... events) {
    String body = prometheus(port);
    long[] counts = new long[events.length];
    for (int i = 0; i < events.length; i++) {
      counts[i] =
          body == null
              ? -1
              : sum(body, "tasklane_scheduler_events_total{", "event=\"" + events[i] + "\"");
    }
    return counts;
  }

  /**
   * From one scrape of the scheduler at {@code port}: {@code tasklane_scheduler_standby_partitions}
   * (changelog partitions its standby replicas update) and {@code tasklane_scheduler_standby_lag}
   * (records they are behind, 0 before they loaded anything); both -1 when it does not answer.
   */
  public static long[] standby(int port) {
    String body = prometheus(port);
    return body == null
        ? new long[] {-1, -1}
        : new long[] {
          sum(body, "tasklane_scheduler_standby_partitions ", ""),
          sum(body, "tasklane_scheduler_standby_lag ", "")
        };
  }

  /**
   * Whether the scheduler at {@code port} answers {@code path} with 200: its stores are open (while
   * Kafka Streams restores or rebalances, the API answers 503).
   */
  public static boolean apiAnswers(int port, String path) {
    try {
      HttpRequest req =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
              .timeout(Duration.ofSeconds(30))
              .build();
      return HTTP.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * From one scrape of the scheduler at {@code port}, the totals of its attempts' round trips
   * (dispatch → result) and of their time on the way (less the handler's run): {@code {round-trip
   * seconds, round trips, on-the-way seconds, on-the-way samples}}; null when it does not answer.
   * The mean over a phase is the difference of two reads' sums over that of their counts.
   */
  public static double[] attemptTotals(int port) {
    String body = prometheus(port);
    if (body == null) {
      return null;
    }
    String rt = "tasklane_scheduler_attempt_round_trip_seconds_";
    String way = "tasklane_scheduler_attempt_on_the_way_seconds_";
    return new double[] {
      value(body, rt + "sum"), value(body, rt + "count"),
      value(body, way + "sum"), value(body, way + "count")
    };
  }

  /**
   * The mean in ms between two {@link #attemptTotals} reads: {round trip, on the way}; -1: none.
   */
  public static long[] attemptMeansMs(double[] before, double[] after) {
    if (before == null || after == null) {
      return new long[] {-1, -1};
    }
    long[] out = new long[2];
    for (int i = 0; i < 2; i++) {
      double n = after[2 * i + 1] - before[2 * i + 1];
      out[i] = n <= 0 ? -1 : Math.round(1_000 * (after[2 * i] - before[2 * i]) / n);
    }
    return out;
  }

  private static double value(String body, String series) {
    for (String line : body.split("\n")) {
      if (line.startsWith(series + " ") || line.startsWith(series + "{")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  /** Sum of the samples of {@code series} whose labels contain {@code label}, or -1. */
  private static long prometheusSum(int port, String series, String label) {
    String body = prometheus(port);
    return body == null ? -1 : sum(body, series, label);
  }

  /** The scheduler's {@code /prometheus} page, or null when it does not answer with 200. */
  private static String prometheus(int port) {
    try {
      HttpRequest req =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prometheus"))
              .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
              .timeout(Duration.ofSeconds(5))
              .build();
      HttpResponse<String> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
      return resp.statusCode() == 200 ? resp.body() : null;
    } catch (IOException | InterruptedException | RuntimeException e) {
      return null;
    }
  }

  private static long sum(String body, String series, String label) {
    try {
      long sum = 0;
      for (String line : body.split("\n")) {
        if (line.startsWith(series) && line.contains(label)) {
          sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return sum;
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
