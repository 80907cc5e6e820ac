package io.tasklane.chaos.internal;

import io.tasklane.harness.Database;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the rate-limited coupon grants of the load ({@link Mix#limited}, the named limit {@value
 * Mix#LIMIT}): in no sliding second did more of them start their effect than the limit's {@code
 * rate + burst}, through every kill -9 (of a scheduler: the limit's owner moves; of a worker: the
 * granted tasks it held go to another worker past their slots, which sends them back). The start is
 * the handler's own time on its effect row. Runs on the caller's thread after the drain.
 */
public final class RateCheck {
  private RateCheck() {}

  /** What the check found. */
  public record Result(
      long tasks, long started, int mostInASecond, long overLimit, List<String> evidence) {
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rate_limited_tasks", tasks);
      m.put("rate_limited_started", started);
      m.put("rate_limit_bound", Mix.LIMIT_RATE + Mix.LIMIT_BURST);
      m.put("rate_most_in_a_second", mostInASecond);
      m.put("rate_over_limit", overLimit);
      return m;
    }
  }

  /** Checks the rate-limited tasks of {@code ledger} that are in {@code committed}. */
  public static Result verify(Database db, Ledger ledger, Set<String> committed) {
    List<String> ids = ledger.limited().stream().filter(committed::contains).toList();
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += 500) {
      String in = String.join("','", ids.subList(i, Math.min(ids.size(), i + 500)));
      db.forEach(
          "SELECT MIN(started_at) FROM demo_effects WHERE task_id IN ('"
              + in
              + "') GROUP BY task_id",
          rs -> starts.add(rs.getLong(1)));
    }
    return check(ids.size(), starts, Mix.LIMIT_RATE + Mix.LIMIT_BURST);
  }

  /**
   * The most starts in any window of one second (a start at {@code t} and one at {@code t + 1000}
   * are in different windows), and how many starts came while a window held more than {@code
   * bound}.
   */
  static Result check(long tasks, List<Long> starts, int bound) {
    List<Long> sorted = starts.stream().sorted().toList();
    int most = 0;
    long over = 0;
    List<String> evidence = new ArrayList<>();
    Long reported = null; // one line per second over the bound, not per start
    for (int i = 0, j = 0; i < sorted.size(); i++) {
      while (sorted.get(i) - sorted.get(j) >= 1_000) {
        j++;
      }
      int n = i - j + 1;
      most = Math.max(most, n);
      if (n > bound) {
        over++;
        if (evidence.size() < 5 && (reported == null || sorted.get(i) - reported >= 1_000)) {
          reported = sorted.get(i);
          evidence.add(
              "rate limit "
                  + Mix.LIMIT
                  + ": "
                  + n
                  + " starts in the second before "
                  + Instant.ofEpochMilli(sorted.get(i))
                  + ", more than rate + burst = "
                  + bound);
        }
      }
    }
    return new Result(tasks, sorted.size(), most, over, evidence);
  }
}
