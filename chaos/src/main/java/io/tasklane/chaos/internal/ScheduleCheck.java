package io.tasklane.chaos.internal;

import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.ScheduleHandlers;
import io.tasklane.harness.Database;
import io.tasklane.harness.TopicReader;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.ScheduleRequest;
import io.tasklane.scheduler.TaskStoreRecords;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * A 1-second schedule through the kill cycles, checked per fire: defined through the outbox when
 * the load starts and deleted when it stops; afterwards every fire the scheduler made (a task with
 * the schedule's header in its task store's changelog, where the partition that fires admits an
 * unsharded fire's task, or on {@code <ns>.tasks}, both read to their ends) must have exactly one
 * effect row (its handler, {@link ScheduleHandlers#SWEEP}, writes the fire instant as {@code ref}),
 * none may start before its instant, and no fire instant may have two effects. Fires the scheduler
 * did not make while it was down are the misfire policy's skips (the default makes each missed fire
 * that is late by at most 5 s and skips the older ones), counted but not a failure. Runs on the
 * caller's thread.
 */
public final class ScheduleCheck {
  /** The schedule's name. */
  public static final String NAME = "chaos.tick";

  private static final String HEADER_SCHEDULE = ReservedHeaders.SCHEDULE;

  /**
   * Per-fire counts.
   *
   * @param made fire instants the scheduler made a task for
   * @param lost made fires without an effect row
   * @param duplicates effect rows beyond the first per fire instant, and task ids beyond the first
   *     per fire instant
   * @param early effects that started before their fire instant
   * @param skipped instants between the first and the last made fire that were not made
   * @param skippedOutsideFaults skipped instants outside every fault that stops fires (a scheduler
   *     killed, the broker down): the misfire policy may only skip fires a fault made late
   * @param outsideDetail empty, or the first such instants and the fault windows, for the run's
   *     notes
   */
  public record Fires(
      long made,
      long lost,
      long duplicates,
      long early,
      long skipped,
      long skippedOutsideFaults,
      String outsideDetail) {
    public Map<String, Object> asMap() {
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("schedule_fires", made);
      m.put("schedule_fires_lost", lost);
      m.put("schedule_fires_duplicate", duplicates);
      m.put("schedule_fires_early", early);
      m.put("schedule_fires_skipped_by_misfire", skipped);
      m.put("schedule_fires_skipped_outside_faults", skippedOutsideFaults);
      return m;
    }
  }

  private ScheduleCheck() {}

  /** Defines the schedule in one outbox transaction. */
  public static void define(Database db) throws SQLException {
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c)
          .schedule(
              ScheduleRequest.named(NAME)
                  .handler(ScheduleHandlers.SWEEP)
                  .every("1s")
                  .maxAttempts(20)
                  .timeout(Duration.ofSeconds(10)));
      c.commit();
    }
  }

  /** Deletes the schedule in one outbox transaction. */
  public static void delete(Database db) throws SQLException {
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c).unschedule(NAME);
      c.commit();
    }
  }

  /**
   * A skipped fire this close to a fault window still counts as in it: the fault's start and the
   * probe's recovery instant bound the outage only to about a second.
   */
  static final long WINDOW_SLACK_MS = 2_000;

  /**
   * The fires made (by task id, their instants) against the effect rows; skipped instants are
   * checked against {@code windows}, the faults that stop fires. {@code taskStoreChangelog} is the
   * scheduler's task store changelog ({@code <application id>-tasklane-tasks-changelog}).
   */
  public static Fires verify(
      String bootstrap,
      String tasksTopic,
      String taskStoreChangelog,
      Database db,
      List<Faults.Window> windows) {
    Map<String, Long> made = new HashMap<>();
    new TopicReader(bootstrap, "chaos-fires-store-")
        .setting(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000)
        .timeouts(Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofMillis(500))
        .readAll(
            taskStoreChangelog,
            r -> {
              if (r.value() == null) {
                return;
              }
              TaskEnvelope task;
              try {
                task = TaskStoreRecords.envelope(r.value());
              } catch (RuntimeException e) {
                return;
              }
              if (task != null
                  && task.headers() != null
                  && NAME.equals(task.headers().get(HEADER_SCHEDULE))) {
                made.put(task.id(), task.dueAt());
              }
            });
    new TopicReader(bootstrap, "chaos-fires-")
        .setting(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
        .setting(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000)
        .timeouts(Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofMillis(500))
        .readAll(
            tasksTopic,
            r -> {
              if (r.value() == null) {
                return;
              }
              TaskTopicRecord t;
              try {
                t = WireCodec.decodeTaskRecord(r.value());
              } catch (RuntimeException e) {
                return; // not a task record: the relay's dead letters go elsewhere
              }
              if (t instanceof TaskEnvelope e
                  && e.headers() != null
                  && NAME.equals(e.headers().get(HEADER_SCHEDULE))) {
                made.put(e.id(), e.dueAt());
              }
            });
    Map<String, Integer> effects = new HashMap<>();
    Map<Long, Integer> perInstant = new HashMap<>();
    long[] early = {0};
    db.forEach(
        "SELECT task_id, ref, started_at FROM demo_effects WHERE kind='"
            + ScheduleHandlers.SWEEP
            + "'",
        rs -> {
          effects.merge(rs.getString(1), 1, Integer::sum);
          perInstant.merge(rs.getLong(2), 1, Integer::sum);
          if (rs.getLong(3) < rs.getLong(2)) {
            early[0]++;
          }
        });
    long lost = made.keySet().stream().filter(id -> !effects.containsKey(id)).count();
    TreeSet<Long> instants = new TreeSet<>(made.values());
    long duplicates =
        perInstant.values().stream().mapToLong(n -> n - 1L).sum() + (made.size() - instants.size());
    long skipped = 0;
    long outside = 0;
    List<Long> outsideSample = new ArrayList<>();
    if (!instants.isEmpty()) {
      for (long at = instants.first(); at <= instants.last(); at += 1_000) {
        if (!instants.contains(at)) {
          skipped++;
          long fireAt = at;
          if (windows.stream().noneMatch(w -> w.covers(fireAt, WINDOW_SLACK_MS))) {
            outside++;
            if (outsideSample.size() < 10) {
              outsideSample.add(fireAt);
            }
          }
        }
      }
    }
    String detail =
        outside == 0
            ? ""
            : "fires skipped outside faults at "
                + outsideSample.stream().map(Instant::ofEpochMilli).toList()
                + "; fault windows "
                + windows.stream()
                    .map(
                        w ->
                            w.what()
                                + " "
                                + Instant.ofEpochMilli(w.startMs())
                                + "–"
                                + Instant.ofEpochMilli(w.endMs()))
                    .toList();
    return new Fires(instants.size(), lost, duplicates, early[0], skipped, outside, detail);
  }
}
