package io.tasklane.worker.internal;

import io.tasklane.core.TaskLogLine;
import io.tasklane.core.Wire;
import io.tasklane.worker.TaskLog;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.MessageFormatter;

/**
 * A {@link TaskLog} that mirrors lines to slf4j and publishes them to the logs topic until the
 * attempt's byte budget is spent; then it publishes one "truncated" line and drops the rest, so a
 * chatty handler cannot fill the producer's buffer and stall other handlers.
 */
final class BoundedTaskLog implements TaskLog {
  private final Logger logger;
  private final Publisher publisher;
  private final Clock clock;
  private final String taskId;
  private final int attempt;
  private final String worker;
  private final long budget;
  private long used;
  private boolean truncated;

  BoundedTaskLog(
      String handler,
      String taskId,
      int attempt,
      String worker,
      long budget,
      Publisher publisher,
      Clock clock) {
    this.logger = LoggerFactory.getLogger("tasklane.task." + handler);
    this.taskId = taskId;
    this.attempt = attempt;
    this.worker = worker;
    this.budget = budget;
    this.publisher = publisher;
    this.clock = clock;
  }

  @Override
  public void info(String format, Object... args) {
    write("INFO", format, args);
  }

  @Override
  public void warn(String format, Object... args) {
    write("WARN", format, args);
  }

  @Override
  public void error(String format, Object... args) {
    write("ERROR", format, args);
  }

  private void write(String level, String format, Object... args) {
    String message = MessageFormatter.arrayFormat(format, args).getMessage();
    TaskLogLine line =
        new TaskLogLine(Wire.VERSION, taskId, attempt, clock.millis(), level, message, worker);
    synchronized (this) {
      if (truncated) {
        return;
      }
      long size = line.message().getBytes(StandardCharsets.UTF_8).length;
      if (used + size > budget) {
        truncated = true;
        line =
            new TaskLogLine(
                Wire.VERSION,
                taskId,
                attempt,
                clock.millis(),
                "WARN",
                "log truncated: this attempt wrote more than " + budget + " bytes; rest dropped",
                worker);
      } else {
        used += size;
      }
    }
    logger.info("[task {} attempt {}] {}: {}", taskId, attempt, level, line.message());
    publisher.log(line);
  }

  synchronized boolean truncated() {
    return truncated;
  }
}
