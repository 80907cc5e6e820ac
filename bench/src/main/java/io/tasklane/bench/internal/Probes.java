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
    try {
      HttpRequest req =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prometheus"))
              .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
              .timeout(Duration.ofSeconds(5))
              .build();
      String body = HTTP.send(req, HttpResponse.BodyHandlers.ofString()).body();
      long sum = -1;
      for (String line : body.split("\n")) {
        if (line.startsWith("tasklane_scheduler_tasks{")
            && line.contains("state=\"" + state + "\"")) {
          sum =
              Math.max(sum, 0)
                  + (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return sum;
    } catch (IOException | InterruptedException | RuntimeException e) {
      return -1;
    }
  }
}
