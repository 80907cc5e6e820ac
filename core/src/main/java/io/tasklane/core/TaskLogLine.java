package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One log line a handler wrote through its {@code TaskContext}, on {@code tasklane.logs} keyed by
 * task id; or, with {@code percent} set, a progress update ({@code TaskContext.progress}), which
 * the scheduler keeps as the task's latest progress instead of as a line.
 *
 * @param percent 0 to 100 for a progress update (level {@link #PROGRESS}); null (absent from the
 *     JSON) for a log line. A reader that does not know progress shows the update as a line.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskLogLine(
    @JsonProperty(required = true) int v,
    String id,
    int attempt,
    long ts,
    String level,
    String message,
    String worker,
    Integer percent)
    implements Versioned {
  /** Longest message kept; longer lines are truncated. */
  public static final int MAX_MESSAGE_CHARS = 4_000;

  /** Longest progress message kept; longer ones are truncated. */
  public static final int MAX_PROGRESS_CHARS = 500;

  /** The level of a progress update. */
  public static final String PROGRESS = "PROGRESS";

  public TaskLogLine {
    message = ErrorInfo.truncate(message, percent == null ? MAX_MESSAGE_CHARS : MAX_PROGRESS_CHARS);
  }

  /** A log line. */
  public TaskLogLine(
      int v, String id, int attempt, long ts, String level, String message, String worker) {
    this(v, id, attempt, ts, level, message, worker, null);
  }

  /** A progress update of {@code percent} (clamped to 0–100) with {@code message} (may be null). */
  public static TaskLogLine progress(
      String id, int attempt, long ts, int percent, String message, String worker) {
    return new TaskLogLine(
        Wire.VERSION,
        id,
        attempt,
        ts,
        PROGRESS,
        message,
        worker,
        Math.max(0, Math.min(100, percent)));
  }

  /** Whether this is a progress update, not a log line. */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean isProgress() {
    return percent != null;
  }
}
