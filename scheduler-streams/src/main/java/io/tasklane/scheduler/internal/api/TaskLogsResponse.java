package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.internal.lifecycle.TaskLogs;
import java.util.List;

/**
 * {@code GET /api/tasks/{id}/logs}: the log lines a task's handler wrote, oldest first; no lines is
 * an empty list. The text is hidden from a viewer that sees no payloads ({@link Redactor}).
 *
 * @param id the task
 * @param lines the lines (of the attempt asked for only, when one was)
 * @param truncated whether lines were dropped over the per-task caps
 * @param dropped how many lines were dropped
 * @param progress the handler's latest progress update ({@code TaskContext.progress}), or null when
 *     none came (absent from the JSON)
 */
public record TaskLogsResponse(
    String id,
    List<Line> lines,
    boolean truncated,
    long dropped,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        Progress progress) {

  /** The answer for task {@code id} with {@code logs} (null: none), of {@code attempt} if given. */
  static TaskLogsResponse of(String id, TaskLogs logs, Integer attempt) {
    TaskLogs l = logs == null ? TaskLogs.EMPTY : logs;
    List<Line> lines =
        l.lines().stream()
            .filter(line -> attempt == null || attempt == line.attempt())
            .map(Line::of)
            .toList();
    TaskLogs.Progress p = l.progress();
    return new TaskLogsResponse(
        id,
        lines,
        l.dropped() > 0,
        l.dropped(),
        p == null
            ? null
            : new Progress(
                p.attempt(), p.percent(), p.message(), p.at(), TaskResponse.iso(p.at())));
  }

  /**
   * The handler's latest progress update.
   *
   * @param attempt the attempt that sent it
   * @param percent how far it got, 0 to 100
   * @param message what it said, or null
   * @param at when it sent it, epoch millis
   * @param atIso the same in ISO-8601 UTC
   */
  public record Progress(int attempt, int percent, String message, long at, String atIso) {}

  /**
   * One line.
   *
   * @param attempt the attempt that wrote it
   * @param at when, epoch millis
   * @param atIso the same in ISO-8601 UTC, null when not set
   * @param level its level
   * @param message its text
   */
  public record Line(int attempt, long at, String atIso, String level, String message) {
    static Line of(TaskLogs.Line line) {
      return new Line(
          line.attempt(), line.at(), TaskResponse.iso(line.at()), line.level(), line.message());
    }
  }
}
