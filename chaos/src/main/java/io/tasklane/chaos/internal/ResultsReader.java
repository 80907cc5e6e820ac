package io.tasklane.chaos.internal;

import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.harness.TopicReader;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Reads the whole results topic (read_committed) and counts deliveries that the worker absorbed: a
 * second result for the same task id and attempt means the same dispatch ran again (after a worker
 * or scheduler was killed) and the idempotency store turned it into a no-op. A delivery whose first
 * run died before its result was written is not visible here (a lower bound).
 */
public final class ResultsReader {
  private ResultsReader() {}

  /** Results beyond the first per (task id, attempt). */
  public static long duplicateDeliveries(String bootstrap, String topic) {
    Map<String, Integer> seen = new HashMap<>();
    new TopicReader(bootstrap, "chaos-verifier-")
        .setting(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
        .setting(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000)
        .timeouts(Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofMillis(500))
        .readAll(
            topic,
            r -> {
              try {
                TaskResult result = WireCodec.decodeResult(r.value());
                seen.merge(result.id() + "#" + result.attempt(), 1, Integer::sum);
              } catch (RuntimeException e) {
                // not a result: the scheduler's own business
              }
            });
    return seen.values().stream().mapToLong(n -> n - 1L).sum();
  }
}
