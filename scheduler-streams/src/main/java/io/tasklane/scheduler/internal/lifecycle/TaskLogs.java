package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskLogLine;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The handler log lines kept for one task, the value of {@link Stores#TASK_LOGS} (JSON): the first
 * lines up to the per-task caps, how many later ones were dropped, and when the last line came (the
 * retention counts from it). Immutable.
 *
 * @param lines the kept lines, in arrival order
 * @param bytes the UTF-8 bytes of the kept messages
 * @param dropped lines that arrived over a cap
 * @param lastAt epoch millis of the last line's arrival
 * @param progress the latest progress update of the task's handler, or null (absent from the JSON)
 *     when none came; not a line, so it takes nothing of the caps
 */
public record TaskLogs(
    List<Line> lines,
    long bytes,
    long dropped,
    long lastAt,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        Progress progress) {
  /** One kept line. */
  public record Line(int attempt, long at, String level, String message) {}

  /** The latest progress update: of which attempt, when the handler sent it, how far, and why. */
  public record Progress(int attempt, long at, int percent, String message) {}

  public TaskLogs {
    lines = lines == null ? List.of() : List.copyOf(lines);
  }

  public static final TaskLogs EMPTY = new TaskLogs(List.of(), 0, 0, 0, null);

  /**
   * These logs with {@code line} kept, or counted dropped when a cap would be passed; a progress
   * update replaces the progress unless it is older than the one kept (an earlier attempt's, or one
   * that arrived late).
   */
  public TaskLogs with(TaskLogLine line, long now, int maxLines, int maxBytes) {
    if (line.isProgress()) {
      if (progress != null
          && (line.attempt() < progress.attempt()
              || (line.attempt() == progress.attempt() && line.ts() < progress.at()))) {
        return this;
      }
      Progress p = new Progress(line.attempt(), line.ts(), line.percent(), line.message());
      return new TaskLogs(lines, bytes, dropped, now, p);
    }
    String message = line.message() == null ? "" : line.message();
    long size = message.getBytes(StandardCharsets.UTF_8).length;
    if (lines.size() >= maxLines || bytes + size > maxBytes) {
      return new TaskLogs(lines, bytes, dropped + 1, now, progress);
    }
    List<Line> next = new ArrayList<>(lines);
    next.add(new Line(line.attempt(), line.ts(), line.level(), message));
    return new TaskLogs(next, bytes + size, dropped, now, progress);
  }

  static Serde<TaskLogs> serde() {
    Serializer<TaskLogs> ser = (topic, v) -> v == null ? null : WireCodec.encode(v);
    Deserializer<TaskLogs> de =
        (topic, b) ->
            b == null
                ? null
                : WireCodec.mapper()
                    .convertValue(
                        WireCodec.readTree(new String(b, StandardCharsets.UTF_8)), TaskLogs.class);
    return Serdes.serdeFrom(ser, de);
  }
}
