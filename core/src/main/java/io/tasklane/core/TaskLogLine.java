package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One log line a handler wrote through its {@code TaskContext}, on {@code tasklane.logs} keyed by
 * task id.
 */
public record TaskLogLine(
    @JsonProperty(required = true) int v,
    String id,
    int attempt,
    long ts,
    String level,
    String message,
    String worker)
    implements Versioned {
  /** Longest message kept; longer lines are truncated. */
  public static final int MAX_MESSAGE_CHARS = 4_000;

  public TaskLogLine {
    message = ErrorInfo.truncate(message, MAX_MESSAGE_CHARS);
  }
}
