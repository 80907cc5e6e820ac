package io.tasklane.chaos.internal;

import io.tasklane.harness.Database;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the ordered lanes of a run against the runs the lane handler recorded ({@code
 * demo_lane_runs}: each run's start, written before its work, and its end, written with its effect
 * or its failure; worker clocks, microseconds, all on one machine).
 *
 * <p><b>Order</b>: per lane, for each committed task and the committed task of the lane before it
 * (by sequence number), the task's effect must come after its predecessor's, and none of its runs
 * may start before its predecessor's effect was committed. The effect's time is the end written in
 * the effect's own transaction, so no later than its commit: a start before it is a start before
 * the commit. A task with an effect whose predecessor has none (lost) is a violation too. Counted
 * once per task.
 *
 * <p><b>Overlap</b>: no two runs of different tasks of a lane may overlap. A run's interval is from
 * its start to its end; a run with no end (its worker was killed by kill -9, or the database was
 * away when the end was to be written) ends at the earliest of the death of its worker process (the
 * time the run's kill -9 or stop returned, or its unexpected exit was noticed: never before the
 * death) and the next start of the same task (until then the task holds its lane anyway: a failed
 * attempt keeps it through its retry); when neither is known its end is unknown and it is checked
 * by its start alone (it must not start inside another task's run) and counted as open. Runs of the
 * same task (retries, redeliveries) may overlap each other: a duplicate run, whose effect the
 * duplicate-effect check sees. Counted per pair of runs.
 */
public final class LaneCheck {
  private static final int EVIDENCE = 10;

  /** An ordered task of the load: its id, lane (ordering key) and place in the lane. */
  public record LaneTask(String id, String lane, long seq) {}

  /**
   * One recorded run.
   *
   * @param endedUs null when the run wrote no end
   * @param outcome {@code effect}, {@code failed}, {@code already}, or null with no end
   */
  public record Run(
      String runId,
      String taskId,
      String lane,
      long seq,
      int attempt,
      long pid,
      long startedUs,
      Long endedUs,
      String outcome) {
    boolean effect() {
      return "effect".equals(outcome) && endedUs != null;
    }
  }

  /**
   * The verdict.
   *
   * @param orderedTasks committed ordered tasks
   * @param orderViolations tasks whose effect or a run came before their predecessor's effect
   * @param overlaps pairs of runs of different tasks of one lane that overlap
   * @param runs recorded runs
   * @param cutRuns runs with no end of their own, ended by their worker's death or their task's
   *     next start
   * @param openRuns runs with neither an end nor a known death of their worker
   * @param evidence the first violations, described
   */
  public record Result(
      long orderedTasks,
      long orderViolations,
      long overlaps,
      long runs,
      long cutRuns,
      long openRuns,
      List<String> evidence) {
    /** The counts for {@code results.json}'s details. */
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("ordered_lanes", OrderedLanes.LANES);
      m.put("ordered_runs", runs);
      m.put("ordered_runs_cut", cutRuns);
      m.put("ordered_runs_open", openRuns);
      return m;
    }
  }

  private LaneCheck() {}

  /** Reads the recorded runs and checks the ledger's committed ordered tasks. */
  public static Result verify(
      Database db, Ledger ledger, Set<String> committed, Map<Long, Long> deaths) {
    List<Run> runs = new ArrayList<>();
    db.forEach(
        "SELECT run_id, task_id, lane, seq, attempt, pid, started_us, ended_us, outcome"
            + " FROM demo_lane_runs",
        rs -> {
          long ended = rs.getLong(8);
          Long end = rs.wasNull() ? null : ended;
          runs.add(
              new Run(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getLong(4),
                  rs.getInt(5),
                  rs.getLong(6),
                  rs.getLong(7),
                  end,
                  rs.getString(9)));
        });
    List<LaneTask> tasks =
        ledger.ordered().values().stream().filter(t -> committed.contains(t.id())).toList();
    return check(tasks, runs, deaths);
  }

  /** The check itself: {@code tasks} the committed ordered tasks, {@code deaths} by pid. */
  static Result check(Collection<LaneTask> tasks, List<Run> runs, Map<Long, Long> deaths) {
    Map<String, List<Run>> runsOfTask = new HashMap<>();
    Map<String, List<Run>> runsOfLane = new TreeMap<>();
    for (Run r : runs) {
      runsOfTask.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
      runsOfLane.computeIfAbsent(r.lane(), k -> new ArrayList<>()).add(r);
    }
    Map<String, Long> effectAt = new HashMap<>();
    for (Run r : runs) {
      if (r.effect()) {
        effectAt.merge(r.taskId(), r.endedUs(), Math::min);
      }
    }
    List<String> evidence = new ArrayList<>();
    long violations = orderViolations(tasks, runsOfTask, effectAt, evidence);
    long cut = 0;
    long open = 0;
    long overlaps = 0;
    for (List<Run> laneRuns : runsOfLane.values()) {
      List<long[]> spans = new ArrayList<>(laneRuns.size());
      laneRuns.sort(Comparator.comparingLong(Run::startedUs));
      for (Run r : laneRuns) {
        long end = end(r, runsOfTask.get(r.taskId()), deaths);
        if (end < 0) {
          open++;
          end = r.startedUs();
        } else if (r.endedUs() == null) {
          cut++;
        }
        spans.add(new long[] {r.startedUs(), end});
      }
      for (int i = 0; i < laneRuns.size(); i++) {
        Run a = laneRuns.get(i);
        long aEnd = spans.get(i)[1];
        for (int j = i + 1; j < laneRuns.size() && laneRuns.get(j).startedUs() < aEnd; j++) {
          Run b = laneRuns.get(j);
          if (!b.taskId().equals(a.taskId())) {
            overlaps++;
            note(
                evidence,
                String.format(
                    "overlap in lane %s: task %s (seq %d, attempt %d, pid %d) ran %s – %s;"
                        + " task %s (seq %d, attempt %d, pid %d) started %s",
                    a.lane(),
                    a.taskId(),
                    a.seq(),
                    a.attempt(),
                    a.pid(),
                    time(a.startedUs()),
                    a.endedUs() == null ? "(no end; taken as " + time(aEnd) + ")" : time(aEnd),
                    b.taskId(),
                    b.seq(),
                    b.attempt(),
                    b.pid(),
                    time(b.startedUs())));
          }
        }
      }
    }
    return new Result(tasks.size(), violations, overlaps, runs.size(), cut, open, evidence);
  }

  private static long orderViolations(
      Collection<LaneTask> tasks,
      Map<String, List<Run>> runsOfTask,
      Map<String, Long> effectAt,
      List<String> evidence) {
    Map<String, List<LaneTask>> lanes = new TreeMap<>();
    tasks.forEach(t -> lanes.computeIfAbsent(t.lane(), k -> new ArrayList<>()).add(t));
    long violations = 0;
    for (List<LaneTask> lane : lanes.values()) {
      lane.sort(Comparator.comparingLong(LaneTask::seq));
      for (int i = 1; i < lane.size(); i++) {
        LaneTask prev = lane.get(i - 1);
        LaneTask cur = lane.get(i);
        Long prevAt = effectAt.get(prev.id());
        Long curAt = effectAt.get(cur.id());
        String why = null;
        if (prevAt == null) {
          if (curAt != null) {
            why = "took effect at " + time(curAt) + " although seq " + prev.seq() + " has none";
          }
        } else if (curAt != null && curAt <= prevAt) {
          why = "took effect at " + time(curAt) + ", before seq " + prev.seq() + "'s effect";
        } else {
          for (Run r : runsOfTask.getOrDefault(cur.id(), List.of())) {
            if (r.startedUs() < prevAt) {
              why =
                  String.format(
                      "attempt %d (pid %d) started %s, before seq %d's effect",
                      r.attempt(), r.pid(), time(r.startedUs()), prev.seq());
              break;
            }
          }
        }
        if (why != null) {
          violations++;
          note(
              evidence,
              String.format(
                  "order in lane %s: task %s (seq %d) %s (task %s, effect %s)",
                  cur.lane(),
                  cur.id(),
                  cur.seq(),
                  why,
                  prev.id(),
                  prevAt == null ? "none" : time(prevAt)));
        }
      }
    }
    return violations;
  }

  /**
   * A run's end: its own, else the earliest of its worker's death and the next start of its task,
   * else -1 (unknown).
   */
  private static long end(Run r, List<Run> sameTask, Map<Long, Long> deaths) {
    if (r.endedUs() != null) {
      return r.endedUs();
    }
    long end = Long.MAX_VALUE;
    Long death = deaths.get(r.pid());
    if (death != null && death >= r.startedUs()) {
      end = death;
    }
    for (Run o : sameTask) {
      if (o.startedUs() > r.startedUs() && o.startedUs() < end) {
        end = o.startedUs();
      }
    }
    return end == Long.MAX_VALUE ? -1 : end;
  }

  private static void note(List<String> evidence, String line) {
    if (evidence.size() < EVIDENCE) {
      evidence.add(line);
    }
  }

  private static String time(long micros) {
    return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000).toString();
  }
}
