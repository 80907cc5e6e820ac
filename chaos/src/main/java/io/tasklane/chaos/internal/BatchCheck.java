package io.tasklane.chaos.internal;

import io.tasklane.core.TaskIds;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.harness.Database;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the batches of the load ({@link Mix#batchMembers}): each committed batch's onComplete
 * callback ran exactly once (one effect of its one task), counted every member SUCCEEDED (its
 * effect's ref), and started after the last of its members started (a callback made before its
 * members ended would start before the delayed ones). Runs on the caller's thread after the drain.
 */
public final class BatchCheck {
  private BatchCheck() {}

  /** What the check found. */
  public record Result(
      long batches,
      long callbacks,
      long missing,
      long twice,
      long wrongCounts,
      long early,
      List<String> evidence) {
    public long violations() {
      return missing + twice + wrongCounts + early;
    }

    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("batches", batches);
      m.put("batch_callbacks", callbacks);
      m.put("batch_callbacks_missing", missing);
      m.put("batch_callbacks_twice", twice);
      m.put("batch_wrong_counts", wrongCounts);
      m.put("batch_callbacks_early", early);
      m.put("batch_violations", violations());
      return m;
    }
  }

  /** Checks the batches of {@code ledger} whose members are all in {@code committed}. */
  public static Result verify(Database db, Ledger ledger, Set<String> committed) {
    long batches = 0;
    long callbacks = 0;
    long missing = 0;
    long twice = 0;
    long wrong = 0;
    long early = 0;
    List<String> evidence = new ArrayList<>();
    for (Map.Entry<String, List<String>> b : ledger.batches().entrySet()) {
      if (!committed.containsAll(b.getValue())) {
        continue;
      }
      batches++;
      String callback = TaskIds.forBatchCallback(b.getKey(), "complete");
      List<long[]> runs = new ArrayList<>(); // ref, started_at
      db.forEach(
          "SELECT ref, started_at FROM demo_effects WHERE task_id = '"
              + callback
              + "' AND kind = '"
              + ScenarioHandlers.BATCH_REPORT
              + "'",
          rs -> runs.add(new long[] {rs.getLong(1), rs.getLong(2)}));
      long[] lastMember = {0};
      String in = String.join("','", b.getValue());
      db.forEach(
          "SELECT MAX(started_at) FROM demo_effects WHERE task_id IN ('" + in + "')",
          rs -> lastMember[0] = rs.getLong(1));
      String problem = null;
      if (runs.isEmpty()) {
        missing++;
        problem = "no callback effect";
      } else {
        callbacks++;
        if (runs.size() > 1) {
          twice++;
          problem = runs.size() + " callback effects";
        } else if (runs.get(0)[0] != b.getValue().size()) {
          wrong++;
          problem = "the callback counted " + runs.get(0)[0] + " of " + b.getValue().size();
        } else if (runs.get(0)[1] < lastMember[0]) {
          early++;
          problem =
              "the callback started at "
                  + Instant.ofEpochMilli(runs.get(0)[1])
                  + ", before its last member at "
                  + Instant.ofEpochMilli(lastMember[0]);
        }
      }
      if (problem != null && evidence.size() < 5) {
        evidence.add("batch " + b.getKey() + ": " + problem);
      }
    }
    return new Result(batches, callbacks, missing, twice, wrong, early, evidence);
  }
}
