package io.tasklane.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.Outcome;
import io.tasklane.core.ScheduleDefinition;
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

  /**
   * The fixture of schedules and their fires stored in the JSON form ({@link
   * ScheduleUpgradeFixtureCapture}): 0.1.0 had no schedules, so its fixture has none; this one was
   * captured from the last scheduler that wrote schedule states and logged fires as JSON.
   */
  static final String SCHEDULES = "schedules-json";

  /** The stores of each fixture's changelogs, by the name in their topic. */
  static final Map<String, List<String>> STORES =
      Map.of(
          "0.1.0",
          List.of("tasklane-tasks", "tasklane-due-index", "tasklane-state-counts"),
          SCHEDULES,
          List.of(
              "tasklane-tasks",
              "tasklane-due-index",
              "tasklane-state-counts",
              "tasklane-task-index",
              "tasklane-task-logs",
              "tasklane-schedules",
              "tasklane-schedule-fires"));

  /** The handler of the fixture schedules' fires. */
  static final String SCHED = "up.sched";

  /** ALLOW, every 2 s: fires answered SUCCEEDED but the third, which ends DEAD. */
  static final String EVERY = "up.every";

  /** SKIP_IF_RUNNING, every 2 s: its first fire never answered (watched), later ones skipped. */
  static final String SKIP = "up.skip";

  /** Every 10 s, paused (version 2, enabled false) after its first fire was answered. */
  static final String PAUSED = "up.paused";

  /** Defined (version 1) and deleted (an unschedule of version 1). */
  static final String DELETED = "up.deleted";

  /** A cron on 29 February only: its next fire is years away. */
  static final String FAR_CRON = "up.leap";

  /** The cron of {@link #FAR_CRON}. */
  static final String LEAP = "0 0 29 2 *";

  /** How many SUCCEEDED fires {@link #EVERY} has at least when the old scheduler stops. */
  static final int SUCCEEDED_FIRES = 3;

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

  /** The schedules the capture defines, version 1 each. */
  static List<ScheduleDefinition> schedules() {
    return List.of(
        schedule(EVERY).every("2s").build(),
        schedule(SKIP).every("2s").overlap(ScheduleDefinition.Overlap.SKIP_IF_RUNNING).build(),
        schedule(PAUSED).every("10s").build(),
        schedule(DELETED).cron("0 3 * * *").build(),
        schedule(FAR_CRON).cron(LEAP).build());
  }

  /** Version 2 of {@link #PAUSED}: paused. */
  static ScheduleDefinition paused() {
    return schedule(PAUSED).every("10s").version(2).enabled(false).build();
  }

  private static ScheduleDefinition.Builder schedule(String name) {
    return ScheduleDefinition.builder()
        .name(name)
        .version(1)
        .handler(SCHED)
        .payload(WireCodec.readTree("{\"schedule\":\"" + name + "\"}"));
  }

  /**
   * How the capture answers the {@code n}th dispatch (from 1) of schedule {@code name}; null: not.
   */
  static Outcome answer(String name, int n) {
    if (name.equals(SKIP)) {
      return null;
    }
    return name.equals(EVERY) && n == 3 ? Outcome.FAILED : Outcome.SUCCEEDED;
  }

  /**
   * How many fires of schedule view {@code view} ({@code GET /api/schedules/{name}}) have {@code
   * outcome}.
   */
  static int outcomes(JsonNode view, String outcome) {
    int n = 0;
    for (JsonNode f : view.path("fires")) {
      n += f.path("outcome").asText().equals(outcome) ? 1 : 0;
    }
    return n;
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
