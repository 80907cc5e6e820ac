package io.tasklane.chaos.internal;

import io.tasklane.core.TaskIds;
import io.tasklane.harness.Database;
import io.tasklane.outbox.JdbcTaskOutbox;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks the unique reminders of the load ({@link Mix#unique}: unique by key until they end): of
 * the tasks one key got, each next task must have been created after the one before it started its
 * effect, since the key is freed only once that task ended (a new task while the previous one was
 * pending or running is an overlap); and the keys must have been freed during the run (keys with
 * more than one task), else the releases did not work. Runs on the caller's thread after the drain.
 */
public final class UniqueCheck {
  private UniqueCheck() {}

  /** What the check found. */
  public record Result(
      long tasks, long keys, long keysReused, long overlaps, List<String> evidence) {
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("unique_tasks", tasks);
      m.put("unique_keys", keys);
      m.put("unique_keys_reused", keysReused);
      m.put("unique_overlaps", overlaps);
      return m;
    }
  }

  /** Checks the unique tasks of {@code ledger} that are in {@code committed}. */
  public static Result verify(Database db, Ledger ledger, Set<String> committed) {
    Map<String, List<String>> byKey = new TreeMap<>();
    ledger
        .unique()
        .forEach(
            (id, key) -> {
              if (committed.contains(id)) {
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(id);
              }
            });
    List<String> ids = byKey.values().stream().flatMap(List::stream).toList();
    Map<String, Long> started = new HashMap<>();
    for (int i = 0; i < ids.size(); i += 500) {
      String in = String.join("','", ids.subList(i, Math.min(ids.size(), i + 500)));
      db.forEach(
          "SELECT task_id, MIN(started_at) FROM demo_effects WHERE task_id IN ('"
              + in
              + "') GROUP BY task_id",
          rs -> started.put(rs.getString(1), rs.getLong(2)));
    }
    long overlaps = 0;
    long reused = 0;
    List<String> evidence = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : byKey.entrySet()) {
      List<String> tasks = new ArrayList<>(e.getValue());
      tasks.sort(Comparator.comparingLong(TaskIds::timestampOf).thenComparing(id -> id));
      if (tasks.size() > 1) {
        reused++;
      }
      for (int i = 1; i < tasks.size(); i++) {
        String before = tasks.get(i - 1);
        String next = tasks.get(i);
        Long beforeStarted = started.get(before);
        long created = TaskIds.timestampOf(next);
        if (beforeStarted != null && created < beforeStarted) {
          overlaps++;
          if (evidence.size() < 5) {
            evidence.add(
                "unique key "
                    + e.getKey()
                    + ": task "
                    + next
                    + " created at "
                    + Instant.ofEpochMilli(created)
                    + " while task "
                    + before
                    + " had not started its effect (at "
                    + Instant.ofEpochMilli(beforeStarted)
                    + ")");
          }
        }
      }
    }
    return new Result(ids.size(), byKey.size(), reused, overlaps, evidence);
  }

  /**
   * After the drain every unique reminder has ended, so each of their keys must be free again (the
   * release travels from the scheduler through the relay to {@code tasklane_unique}): enqueues one
   * more unique reminder per key, again every second for a key whose enqueue still returned an
   * earlier task, for at most {@code wait}. Returns how many keys a new task took. Deterministic
   * where the keys taken again during the load are not (on a slow machine a key's first task may
   * end only after the load stopped). Its tasks are outside the verdict's ledger. Runs on the
   * caller's thread.
   */
  public static long retakeAfterDrain(Database db, Ledger ledger, Duration wait)
      throws SQLException, InterruptedException {
    Set<String> earlier = ledger.unique().keySet();
    Set<String> waiting = new TreeSet<>(ledger.unique().values());
    long retaken = 0;
    long deadline = System.nanoTime() + wait.toNanos();
    long ref = Long.MAX_VALUE / 2; // payload refs no load task has
    while (!waiting.isEmpty() && System.nanoTime() < deadline) {
      try (Connection c = db.connect()) {
        c.setAutoCommit(false);
        for (String key : List.copyOf(waiting)) {
          String id = JdbcTaskOutbox.of(c).enqueue(Mix.uniqueWithKey(key, ref++));
          c.commit();
          if (!earlier.contains(id)) {
            waiting.remove(key);
            retaken++;
          }
        }
      }
      if (!waiting.isEmpty()) {
        Thread.sleep(1_000);
      }
    }
    return retaken;
  }
}
