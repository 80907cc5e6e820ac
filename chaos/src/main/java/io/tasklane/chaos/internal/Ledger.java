package io.tasklane.chaos.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The task ids the chaos run offered: those whose commit returned normally ({@link #committed}) and
 * those whose commit threw ({@link #ambiguous}: committed or not, the verifier asks the outbox).
 * Thread-safe; kept in memory so the relay's purge of old outbox rows does not matter.
 */
public final class Ledger {
  private final Set<String> committed = ConcurrentHashMap.newKeySet();
  private final Set<String> ambiguous = ConcurrentHashMap.newKeySet();
  private final Map<String, LaneCheck.LaneTask> ordered = new ConcurrentHashMap<>();
  private final Map<String, String> unique = new ConcurrentHashMap<>();
  private final Set<String> limited = ConcurrentHashMap.newKeySet();
  private final Map<String, List<String>> batches = new ConcurrentHashMap<>();

  public void committed(List<String> ids) {
    committed.addAll(ids);
  }

  public void ambiguous(List<String> ids) {
    ambiguous.addAll(ids);
  }

  /** Ordered tasks offered (committed or ambiguous: the verifier keeps the committed ones). */
  public void ordered(List<LaneCheck.LaneTask> tasks) {
    tasks.forEach(t -> ordered.put(t.id(), t));
  }

  /** Every ordered task offered, by id. */
  public Map<String, LaneCheck.LaneTask> ordered() {
    return new HashMap<>(ordered);
  }

  /** The keys of unique tasks offered, by the id each enqueue returned (a new or a held task). */
  public void unique(Map<String, String> keyById) {
    unique.putAll(keyById);
  }

  /** Every unique task offered: its key, by id. */
  public Map<String, String> unique() {
    return new HashMap<>(unique);
  }

  /** A batch committed with its members ({@link BatchCheck}). */
  public void batch(String batch, List<String> members) {
    batches.put(batch, List.copyOf(members));
  }

  /** Every batch committed: its members, by batch id. */
  public Map<String, List<String>> batches() {
    return new HashMap<>(batches);
  }

  /** Rate-limited tasks offered ({@link Mix#limited}). */
  public void limited(List<String> ids) {
    limited.addAll(ids);
  }

  /** Every rate-limited task offered. */
  public List<String> limited() {
    return new ArrayList<>(limited);
  }

  public int committedCount() {
    return committed.size();
  }

  public List<String> committed() {
    return new ArrayList<>(committed);
  }

  public List<String> ambiguous() {
    return new ArrayList<>(ambiguous);
  }
}
