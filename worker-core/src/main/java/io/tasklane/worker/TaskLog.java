package io.tasklane.worker;

/**
 * The per-attempt logger of a handler. Messages use slf4j's {@code {}} placeholders. Lines are
 * written to the worker's slf4j log (logger {@code tasklane.task.<handler>}) and published to
 * {@code <ns>.logs} keyed by task id, at most {@code tasklane.worker.log-bytes-per-attempt} bytes
 * per attempt (then one "truncated" line, the rest dropped). Never blocks for long; thread-safe.
 */
public interface TaskLog {
  void info(String format, Object... args);

  void warn(String format, Object... args);

  void error(String format, Object... args);
}
