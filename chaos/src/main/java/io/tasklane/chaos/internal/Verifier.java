package io.tasklane.chaos.internal;

import io.tasklane.harness.Database;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the ledger against the database: which committed tasks have no effect row (lost, once
 * drained) and which task ids have more than one (a duplicate effect). Ambiguous commits count as
 * committed when their row is in the outbox or their effect exists. Runs on the caller's thread.
 */
public final class Verifier {
  private final Database db;
  private final Ledger ledger;

  public Verifier(Database db, Ledger ledger) {
    this.db = db;
    this.ledger = ledger;
  }

  /** Effect rows per task id. */
  public Map<String, Integer> effects() {
    Map<String, Integer> out = new HashMap<>();
    db.forEach(
        "SELECT task_id, COUNT(*) FROM demo_effects GROUP BY task_id",
        rs -> out.put(rs.getString(1), rs.getInt(2)));
    return out;
  }

  /**
   * Distinct task ids with an effect row: a cheap progress count for the drain (an index scan), no
   * ids transferred. Every effect belongs to an offered task, so the drain is complete no earlier
   * than when this reaches {@link Ledger#committedCount()}.
   */
  public long distinctEffectTasks() {
    return db.count("SELECT COUNT(DISTINCT task_id) FROM demo_effects");
  }

  /** The tasks known to be committed: the ledger's plus ambiguous ones found in the outbox. */
  public Set<String> committed(Map<String, Integer> effects) {
    Set<String> all = new HashSet<>(ledger.committed());
    List<String> ambiguous = ledger.ambiguous();
    for (int i = 0; i < ambiguous.size(); i += 500) {
      List<String> chunk = ambiguous.subList(i, Math.min(ambiguous.size(), i + 500));
      String in = String.join("','", chunk);
      db.forEach(
          "SELECT task_id FROM tasklane_outbox WHERE task_id IN ('" + in + "')",
          rs -> all.add(rs.getString(1)));
    }
    ambiguous.stream().filter(effects::containsKey).forEach(all::add);
    return all;
  }

  /** Committed tasks with no effect row yet. */
  public long missing(Set<String> committed, Map<String, Integer> effects) {
    return committed.stream().filter(id -> !effects.containsKey(id)).count();
  }

  /** Some committed ids with no effect row, for the report. */
  public List<String> missingSample(Set<String> committed, Map<String, Integer> effects) {
    return committed.stream().filter(id -> !effects.containsKey(id)).limit(10).toList();
  }

  /** Task ids with more than one effect row. */
  public static long duplicates(Map<String, Integer> effects) {
    return effects.values().stream().filter(n -> n > 1).count();
  }
}
