package io.tasklane.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The scheduler state an earlier release left, as captured by {@link UpgradeFixtureCapture} and
 * replayed by {@link UpgradeTest}: which tasks were made, the state each was in when the old
 * scheduler stopped, and the records of its changelog topics and of the handler topic (one JSON
 * object per line, key and value in Base64).
 */
final class UpgradeFixture {
  /**
   * 2036-01-01: far enough that a task due then is still PENDING when the test runs, near enough
   * for the ten-year limit on dueAt.
   */
  static final long FAR = 2_082_758_400_000L;

  static final String WORK = "up.work";
  static final String NO_HANDLER = "up.nohandler";
  static final int PARTITIONS = 4;
  static final int BULK = 200;

  /** The stores of the release's changelogs, by the name in their topic. */
  static final Map<String, List<String>> STORES =
      Map.of("0.1.0", List.of("tasklane-tasks", "tasklane-due-index", "tasklane-state-counts"));

  private UpgradeFixture() {}

  /** The tasks the capture makes and the state each must be in when the old scheduler stops. */
  static Map<String, TaskState> expected() {
    Map<String, TaskState> m = new LinkedHashMap<>();
    for (int i = 1; i <= 3; i++) {
      m.put("delayed-" + i, i == 3 ? TaskState.CANCELLED : TaskState.PENDING);
      m.put("dispatched-" + i, TaskState.DISPATCHED);
    }
    m.put("waiting-1", TaskState.WAITING);
    m.put("waiting-2", TaskState.WAITING);
    m.put("succeeded-1", TaskState.SUCCEEDED);
    m.put("dead-1", TaskState.DEAD);
    m.put("nohandler-1", TaskState.NO_HANDLER);
    for (int i = 0; i < BULK; i++) {
      m.put(bulk(i), TaskState.PENDING);
    }
    return m;
  }

  static String bulk(int i) {
    return "bulk-" + i;
  }

  /** The task id of fixture task {@code name}: a name-based UUID, the same in every run. */
  static String id(String name) {
    return java.util
        .UUID
        .nameUUIDFromBytes(("tasklane-upgrade:" + name).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /** The envelope of fixture task {@code id} (its name), made at {@code now}. */
  static TaskEnvelope task(String id, long now) {
    TaskEnvelope.Builder b =
        TaskEnvelope.builder()
            .id(id(id))
            .handler(id.startsWith("nohandler") ? NO_HANDLER : WORK)
            .payload(WireCodec.readTree("{\"n\":\"" + id + "\"}"))
            .dueAt(id.startsWith("delayed") || id.startsWith("bulk") ? FAR : now)
            .maxAttempts(id.startsWith("dead") ? 1 : 5)
            .timeoutMs(86_400_000)
            .createdAt(now);
    if (id.equals("waiting-1")) {
      b.dependsOn(List.of(id("dispatched-1")));
    } else if (id.equals("waiting-2")) {
      b.dependsOn(List.of(id("delayed-1")));
    }
    return b.build();
  }

  /** One record of a fixture file. */
  record Line(String topic, int partition, long timestamp, byte[] key, byte[] value) {
    static Line of(String topic, ConsumerRecord<byte[], byte[]> r) {
      return new Line(topic, r.partition(), r.timestamp(), r.key(), r.value());
    }

    String json() {
      ObjectNode n = WireCodec.mapper().createObjectNode();
      n.put("topic", topic).put("partition", partition).put("timestamp", timestamp);
      n.put("key", key == null ? null : Base64.getEncoder().encodeToString(key));
      n.put("value", value == null ? null : Base64.getEncoder().encodeToString(value));
      return n.toString();
    }

    static Line parse(String json) {
      JsonNode n = WireCodec.readTree(json);
      return new Line(
          n.get("topic").asText(),
          n.get("partition").asInt(),
          n.get("timestamp").asLong(),
          bytes(n.get("key")),
          bytes(n.get("value")));
    }

    private static byte[] bytes(JsonNode n) {
      return n == null || n.isNull() ? null : Base64.getDecoder().decode(n.asText());
    }
  }

  static void write(Path file, List<Line> lines) throws IOException {
    Files.createDirectories(file.getParent());
    StringBuilder b = new StringBuilder();
    lines.forEach(l -> b.append(l.json()).append('\n'));
    Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
  }

  /** The lines of fixture {@code name} of {@code release} (a test resource). */
  static List<Line> read(String release, String name) throws IOException {
    try (var in = UpgradeFixture.class.getResourceAsStream("/upgrade/" + release + "/" + name)) {
      if (in == null) {
        throw new IOException("no fixture /upgrade/" + release + "/" + name);
      }
      List<Line> out = new ArrayList<>();
      for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!l.isBlank()) {
          out.add(Line.parse(l));
        }
      }
      return out;
    }
  }
}
