package io.tasklane.chaos.internal;

import io.tasklane.harness.TasklaneApps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * When a fault that stops schedule fires is over for the schedulers: every scheduler's {@code
 * /health} reports Kafka Streams RUNNING (its tasks assigned and restored), after the fault began.
 * A task probe alone cannot say it: its one task lands on one partition, which may belong to the
 * scheduler that was not hit, while the schedule's partition waits for the killed member's session
 * to time out and for its state to be restored. Runs on a probe thread; polls every 200 ms.
 */
final class SchedulersRunning {
  private static final Duration SETTLE = Duration.ofSeconds(1);
  private final List<Integer> ports;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  SchedulersRunning(List<Integer> ports) {
    this.ports = List.copyOf(ports);
  }

  /**
   * Seconds from {@code since} ({@link System#nanoTime()}) until every scheduler reported RUNNING
   * at each poll for a second (a rebalance that follows a join shows as a short REBALANCING between
   * RUNNINGs), or -1 when that did not happen by {@code timeout}.
   */
  double await(long since, Duration timeout) throws InterruptedException {
    long deadline = since + timeout.toNanos();
    Long runningSince = null; // nanoTime values may be negative: no sentinel
    while (System.nanoTime() - deadline < 0) {
      long now = System.nanoTime();
      if (!ports.stream().allMatch(this::running)) {
        runningSince = null;
      } else if (runningSince == null) {
        runningSince = now;
      } else if (now - runningSince >= SETTLE.toNanos()) {
        return (runningSince - since) / 1e9;
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    return -1;
  }

  private boolean running(int port) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                  .header("Authorization", "Bearer " + TasklaneApps.TOKEN) // details: the state
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && r.body().contains("\"state\":\"RUNNING\"");
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
