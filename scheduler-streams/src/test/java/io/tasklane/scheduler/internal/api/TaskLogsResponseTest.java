package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.TaskLogs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The typed answer of {@code GET /api/tasks/{id}/logs} ({@link TaskLogsResponse}) writes what the
 * API answered when it built it by hand (kept here as the reference), byte for byte: no logs, many
 * lines of several attempts, one attempt asked for, dropped lines.
 */
class TaskLogsResponseTest {
  private static final String ID = "0b6c8f5e-3c1f-4d3e-9a55-1f0e6a4f2b11";
  private static final long T = 1_800_000_000_000L;

  @Test
  void everyLogAnswerReadsAsBefore() {
    Random random = new Random(11);
    List<TaskLogs> all = new ArrayList<>();
    all.add(null);
    all.add(TaskLogs.EMPTY);
    for (int i = 0; i < 30; i++) {
      List<TaskLogs.Line> lines = new ArrayList<>();
      int n = random.nextInt(40);
      for (int j = 0; j < n; j++) {
        lines.add(
            new TaskLogs.Line(
                1 + random.nextInt(3),
                random.nextInt(10) == 0 ? 0 : T + random.nextInt(1_000_000),
                List.of("INFO", "WARN", "ERROR").get(random.nextInt(3)),
                random.nextBoolean() ? "sent \"mail\" to a@b.c" : "line " + j));
      }
      all.add(new TaskLogs(lines, 1000, random.nextBoolean() ? 0 : random.nextInt(50), T, null));
    }
    for (TaskLogs logs : all) {
      for (Integer attempt : new Integer[] {null, 1, 2, 7}) {
        String typed = LogQuery.json(ID, logs, attempt);
        assertThat(typed).isEqualTo(before(ID, logs, attempt));
      }
    }
  }

  // ---- the answer as the API built it by hand, for reference ----

  private static String before(String id, TaskLogs logs, Integer attempt) {
    TaskLogs l = logs == null ? TaskLogs.EMPTY : logs;
    List<Map<String, Object>> lines = new ArrayList<>();
    for (TaskLogs.Line line : l.lines()) {
      if (attempt == null || attempt == line.attempt()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt", line.attempt());
        m.put("at", line.at());
        m.put("atIso", line.at() > 0 ? Instant.ofEpochMilli(line.at()).toString() : null);
        m.put("level", line.level());
        m.put("message", line.message());
        lines.add(m);
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", id);
    out.put("lines", lines);
    out.put("truncated", l.dropped() > 0);
    out.put("dropped", l.dropped());
    return WireCodec.encodeToString(out);
  }
}
