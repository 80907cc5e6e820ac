package io.tasklane.examples.demo;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Prints the scheduler's Kafka Streams thread figures from its {@code /prometheus} (commit, poll,
 * process and punctuate latency and share of the thread's time, blocked time; the consumer's fetch
 * and the producers' request latency), read while the workload has just been offered, so that the
 * averages cover it. Used on the demo's thread; a scheduler that does not answer prints one line
 * saying so.
 */
final class StreamsFigures {
  private static final Pattern WANTED =
      Pattern.compile(
          "^kafka_stream_thread_(commit|poll|process|punctuate)_(latency_avg|latency_max|ratio)\\{"
              + "|^kafka_stream_thread_blocked_time_ns_total\\{"
              + "|^kafka_consumer_fetch_manager_fetch_latency_(avg|max)\\{.*client_id=\"[^\"]*StreamThread-1-consumer\""
              + "|^kafka_producer_request_latency_(avg|max)\\{.*StreamThread-1-producer");

  private StreamsFigures() {}

  static void print(PrintStream out, int port, String token) {
    List<String> lines = new ArrayList<>();
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prometheus"))
                      .header("Authorization", "Bearer " + token)
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      for (String line : r.body().split("\n")) {
        if (WANTED.matcher(line).find()) {
          lines.add(line.replaceAll("\\{.*}", ""));
        }
      }
    } catch (Exception e) {
      out.println("  (scheduler's Kafka Streams figures not read: " + e + ")");
      return;
    }
    out.println("  scheduler's Kafka Streams figures at the end of the workload:");
    lines.stream().sorted().forEach(l -> out.println("    " + l));
  }
}
