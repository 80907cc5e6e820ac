package io.tasklane.bench.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The requests each app's Kafka clients sent, from the clients' own metrics read over JMX in the
 * app's JVM ({@link BrokerRequests#sum}): every producer's {@code request-total} (produce requests,
 * and the few metadata and id requests a producer sends besides) and every consumer's {@code
 * fetch-total}, summed per app. Two {@link #sample samples} around a scenario give the produce and
 * fetch requests per task of the relay, the scheduler and the worker — what the broker is paid for
 * per client. Used on the run's thread.
 */
final class ClientRequests {
  static final String PRODUCERS = "kafka.producer:type=producer-metrics,client-id=*";
  static final String FETCHERS = "kafka.consumer:type=consumer-fetch-manager-metrics,client-id=*";

  private ClientRequests() {}

  /** Per app and kind ({@code produce}, {@code fetch}): the requests so far; -1 when unreadable. */
  static Map<String, Long> sample(Map<String, Long> apps) {
    Map<String, Long> out = new LinkedHashMap<>();
    apps.forEach(
        (app, pid) -> {
          out.put(app + "/produce", BrokerRequests.sum(pid, PRODUCERS, "request-total"));
          out.put(app + "/fetch", BrokerRequests.sum(pid, FETCHERS, "fetch-total"));
        });
    return out;
  }

  /**
   * Records {@code <prefix>broker_produce_requests_per_task_<app>} and {@code
   * <prefix>broker_fetch_requests_per_task_<app>} for {@code tasks} tasks, from two samples.
   */
  static void record(BenchRun run, Map<String, Long> before, Map<String, Long> after, long tasks) {
    StringBuilder line = new StringBuilder();
    before.forEach(
        (k, b) -> {
          Long a = after.get(k);
          if (b < 0 || a == null || a < 0 || tasks <= 0) {
            return;
          }
          String app = k.substring(0, k.indexOf('/'));
          String kind = k.substring(k.indexOf('/') + 1);
          double perTask = (a - b) / (double) tasks;
          run.results.put(run.options.key("broker_" + kind + "_requests_per_task_" + app), perTask);
          line.append(line.length() == 0 ? "" : ", ")
              .append(String.format("%s %s %.4f", app, kind, perTask));
        });
    run.out.println(
        line.length() == 0
            ? "  client requests: not readable (no JMX attach to the apps)"
            : "  client requests per task: " + line);
  }
}
