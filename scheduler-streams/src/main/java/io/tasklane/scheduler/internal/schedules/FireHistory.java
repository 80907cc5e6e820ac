package io.tasklane.scheduler.internal.schedules;

import java.util.ArrayList;
import java.util.List;

/**
 * The fires of one schedule as a list, oldest first: its {@link ScheduleState}'s watched ones
 * (running under an overlap policy that watches them, waiting), with the fires made or finished
 * during the change until the state is written (those no policy watches then move to the {@link
 * FireLog}, of which the status read shows the newest {@link #KEEP}); at most {@link #KEEP}
 * finished fires beside the running and waiting ones, and at most {@link #MAX} fires in all (the
 * oldest go first, and their late results are no longer tracked). Pure; a new list per change.
 */
public final class FireHistory {
  /** Finished fires kept for the status read. */
  public static final int KEEP = 50;

  /** The hard cap of fires kept, running ones included. */
  static final int MAX = 200;

  private FireHistory() {}

  /** The fire with {@code fireId}, or null. */
  static FireRecord find(List<FireRecord> fires, String fireId) {
    for (FireRecord f : fires) {
      if (f.fireId().equals(fireId)) {
        return f;
      }
    }
    return null;
  }

  /** The fires whose tasks are not all terminal. */
  static List<FireRecord> running(List<FireRecord> fires) {
    return fires.stream().filter(f -> f.outcome() == FireRecord.Outcome.RUNNING).toList();
  }

  /** {@code fires} with {@code fire} in place of the one of its id, or appended; trimmed. */
  static List<FireRecord> put(List<FireRecord> fires, FireRecord fire) {
    List<FireRecord> next = new ArrayList<>(fires.size() + 1);
    boolean replaced = false;
    for (FireRecord f : fires) {
      if (f.fireId().equals(fire.fireId())) {
        next.add(fire);
        replaced = true;
      } else {
        next.add(f);
      }
    }
    if (!replaced) {
      next.add(fire);
    }
    return trim(next);
  }

  private static List<FireRecord> trim(List<FireRecord> fires) {
    long finished = fires.stream().filter(f -> f.outcome().finished()).count();
    List<FireRecord> kept = new ArrayList<>(fires.size());
    for (FireRecord f : fires) {
      if (f.outcome().finished() && finished > KEEP) {
        finished--;
        continue;
      }
      kept.add(f);
    }
    return kept.size() > MAX ? List.copyOf(kept.subList(kept.size() - MAX, kept.size())) : kept;
  }
}
