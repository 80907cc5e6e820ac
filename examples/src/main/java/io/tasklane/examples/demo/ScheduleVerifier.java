package io.tasklane.examples.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.examples.orders.ScheduleHandlers;
import io.tasklane.examples.orders.ScheduleService;
import io.tasklane.harness.Database;
import io.tasklane.harness.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;

/**
 * Checks the demo's recurring schedules ({@link ScheduleService}) against the effect rows their
 * handlers wrote, each with its fire instant: the 1-second sweep fired every second while it was
 * defined (no gap, within a tolerance of the expected count, no fire twice), no fire's task started
 * before its instant, every broadcast fire ran each of its shards once, and each broadcast fire's
 * child ran once, after all its shards. Used on the demo's thread.
 */
final class ScheduleVerifier {
  /** Fires more or fewer than the run time implies that still pass (definition and delete lag). */
  static final int TOLERANCE = 3;

  private record Effect(String taskId, String kind, long fireAt, long startedAt) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Database db;
  private final long definedAt;
  private final int tasksPartitions;
  private long stoppedAt = Long.MAX_VALUE;

  /** The last sweep fire the scheduler made a task for, from its history once deleted. */
  private long lastFireAt = Long.MIN_VALUE;

  /**
   * @param tasksPartitions the partition count of {@code <ns>.tasks}, which places a child fire's
   *     task id in its schedule's partition
   */
  ScheduleVerifier(Database db, long definedAt, int tasksPartitions) {
    this.db = db;
    this.definedAt = definedAt;
    this.tasksPartitions = tasksPartitions;
  }

  /**
   * Waits (at most {@code max}) until the scheduler on {@code port} applied the deletion of the
   * 1-second schedule — its status answers {@code "deleted":true} — and takes that instant as the
   * stop: the schedule is defined until the scheduler has the deletion, which the outbox, the relay
   * and a loaded scheduler may take seconds to bring. The deleted schedule's history names its last
   * fire that made a task; the sweep is settled once that fire's effect is written.
   */
  void awaitDeleted(int port, String token, Duration max) throws InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest get =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/schedules/" + ScheduleService.SWEEP))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.currentTimeMillis() + max.toMillis();
    while (System.currentTimeMillis() < deadline) {
      try {
        HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          JsonNode status = JSON.readTree(r.body());
          if (status.path("deleted").asBoolean()) {
            lastFireAt = lastMadeFire(status);
            break;
          }
        }
      } catch (IOException e) {
        // the scheduler is busy: ask again
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    stoppedAt = System.currentTimeMillis();
  }

  private static long lastMadeFire(JsonNode status) {
    long last = Long.MIN_VALUE;
    for (JsonNode fire : status.path("fires")) {
      if (fire.path("tasks").size() > 0) {
        last = Math.max(last, fire.path("fireAt").asLong());
      }
    }
    return last;
  }

  private List<Effect> effects(String kindPrefix) {
    List<Effect> out = new ArrayList<>();
    db.forEach(
        "SELECT task_id, kind, ref, started_at FROM demo_effects WHERE kind LIKE '"
            + kindPrefix
            + "%' ORDER BY ref, kind",
        rs -> out.add(new Effect(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4))));
    return out;
  }

  private TreeMap<Long, List<Effect>> byFire(List<Effect> effects) {
    TreeMap<Long, List<Effect>> out = new TreeMap<>();
    effects.forEach(e -> out.computeIfAbsent(e.fireAt(), k -> new ArrayList<>()).add(e));
    return out;
  }

  /**
   * The partition count of {@code <ns>.tasks}, which places an unsharded fire's task id in its
   * schedule's partition ({@link TaskIds#inPartitionOf}).
   */
  static int tasksPartitions(String bootstrap, String namespace) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      String topic = new Topics(namespace).tasks();
      return TopicAdmin.partitions(admin, topic)
          .orElseThrow(() -> new IllegalStateException("no topic " + topic));
    }
  }

  /**
   * The child task's id for the broadcast fire at {@code fireAt}, derived as the scheduler derives
   * it: the child fire's id placed in the child schedule's partition.
   */
  private String childTaskId(long fireAt) {
    String parentFire = TaskIds.forScheduleFire(ScheduleService.SHARDS, fireAt, -1);
    String childFire = TaskIds.forScheduleChild(ScheduleService.CHILD, parentFire);
    return TaskIds.inPartitionOf(childFire, ScheduleService.CHILD, tasksPartitions);
  }

  /** True once the broadcast fired twice with all its shards: the schedules ran long enough. */
  boolean ranLongEnough() {
    return byFire(effects(ScheduleHandlers.SHARD + ".")).values().stream()
            .filter(l -> l.size() >= ScheduleService.SHARD_COUNT)
            .count()
        >= 2;
  }

  /**
   * True once the schedules were stopped and every fire made is complete: the sweep's last fire
   * (from the scheduler's history) has its effect, each broadcast fire has all its shards and its
   * child.
   */
  boolean settled() {
    if (stoppedAt == Long.MAX_VALUE) {
      return false;
    }
    TreeMap<Long, List<Effect>> sweeps = byFire(effects(ScheduleHandlers.SWEEP));
    if (sweeps.isEmpty() || sweeps.lastKey() < lastFireAt) {
      return false;
    }
    TreeMap<Long, List<Effect>> shards = byFire(effects(ScheduleHandlers.SHARD + "."));
    long children = db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='schedule.child'");
    // the broadcast is paused, not deleted, at the stop: every fire it made owes its child
    return shards.values().stream().allMatch(l -> l.size() >= ScheduleService.SHARD_COUNT)
        && children >= shards.size();
  }

  private static long lastStart(List<Effect> effects) {
    return effects.stream().mapToLong(Effect::startedAt).max().orElse(0);
  }

  void verify(Verdict v) {
    List<Effect> sweepRows = effects(ScheduleHandlers.SWEEP);
    TreeMap<Long, List<Effect>> sweeps = byFire(sweepRows);
    long first = sweeps.isEmpty() ? definedAt : sweeps.firstKey();
    long expected = Math.max(0, (stoppedAt - first) / 1_000 + 1);
    long span = sweeps.isEmpty() ? 0 : (sweeps.lastKey() - first) / 1_000 + 1;
    v.check(
        "the 1-second schedule fired every second while defined",
        !sweeps.isEmpty()
            && span == sweeps.size()
            && Math.abs(sweeps.size() - expected) <= TOLERANCE,
        sweeps.size()
            + " fires, "
            + (span - sweeps.size())
            + " gaps, expected "
            + expected
            + " ± "
            + TOLERANCE);
    List<Effect> all = effects("schedule.");
    long dup = all.size() - all.stream().map(Effect::taskId).distinct().count();
    long sweepDup = sweepRows.size() - sweeps.size();
    v.check(
        "no schedule fire ran twice",
        dup == 0 && sweepDup == 0,
        dup + " task ids with 2+ effects, " + sweepDup + " sweep instants with 2+ tasks");
    long early =
        all.stream()
            .filter(e -> !e.kind().equals(ScheduleHandlers.CHILD) && e.startedAt() < e.fireAt())
            .count();
    v.check("no schedule fire started before its instant", early == 0, early + " early starts");
    TreeMap<Long, List<Effect>> shards = byFire(effects(ScheduleHandlers.SHARD + "."));
    long whole =
        shards.values().stream()
            .filter(
                l ->
                    l.size() == ScheduleService.SHARD_COUNT
                        && l.stream().map(Effect::kind).distinct().count()
                            == ScheduleService.SHARD_COUNT)
            .count();
    v.check(
        "every shard of each broadcast fire ran once",
        !shards.isEmpty() && whole == shards.size(),
        whole
            + " of "
            + shards.size()
            + " fires with shards 0.."
            + (ScheduleService.SHARD_COUNT - 1)
            + " once each");
    Map<String, Effect> children = new HashMap<>();
    effects(ScheduleHandlers.CHILD).forEach(e -> children.put(e.taskId(), e));
    long after = 0;
    long missing = 0;
    for (Map.Entry<Long, List<Effect>> f : shards.entrySet()) {
      Effect child = children.get(childTaskId(f.getKey()));
      long lastShard = lastStart(f.getValue());
      if (child != null && child.startedAt() >= lastShard) {
        after++;
      } else if (child == null) {
        missing++;
      }
    }
    v.check(
        "each broadcast fire's child ran once, after all its shards",
        missing == 0 && after == children.size() && children.size() <= shards.size(),
        after
            + " of "
            + shards.size()
            + " in order, "
            + children.size()
            + " child runs, "
            + missing
            + " missing");
  }

  void summary(PrintStream out) {
    Histogram lateness = new Histogram(3_600_000L, 3);
    List<Effect> sweeps = effects(ScheduleHandlers.SWEEP);
    sweeps.forEach(e -> lateness.recordValue(Math.max(0, e.startedAt() - e.fireAt())));
    out.printf(
        "  schedule %s (every 1s): %d fires; fire instant → handler start p50 %d ms, p99 %d ms,"
            + " max %d ms%n",
        ScheduleService.SWEEP,
        sweeps.size(),
        lateness.getValueAtPercentile(50),
        lateness.getValueAtPercentile(99),
        lateness.getMaxValue());
    long shardFires = byFire(effects(ScheduleHandlers.SHARD + ".")).size();
    out.printf(
        "  schedule %s (every %ds, BROADCAST %d shards): %d fires; child %s ran %d times%n",
        ScheduleService.SHARDS,
        ScheduleService.SHARDS_EVERY_S,
        ScheduleService.SHARD_COUNT,
        shardFires,
        ScheduleService.CHILD,
        effects(ScheduleHandlers.CHILD).size());
  }
}
