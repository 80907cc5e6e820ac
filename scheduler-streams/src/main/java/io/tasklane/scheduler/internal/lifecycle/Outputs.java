package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlRecord;
import io.tasklane.core.Dispatch;
import io.tasklane.core.DispatchPriority;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.UniqueRelease;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Forwards the scheduler's output records to the right sink node. Used on the stream task's thread
 * (processing and punctuation); the records are produced with the task's next commit (in its
 * transaction under {@code exactly_once_v2}), together with the store changes of the same step.
 */
public final class Outputs {
  static final String ERROR_TYPE = ReservedHeaders.ERROR_TYPE;
  public static final String ERROR_MESSAGE = ReservedHeaders.ERROR_MESSAGE;
  public static final String REASON = ReservedHeaders.REASON;
  static final String ERROR_CLASS = ReservedHeaders.ERROR_CLASS;
  static final String ORIGINAL_TOPIC = ReservedHeaders.ORIGINAL_TOPIC;
  static final String ORIGINAL_PARTITION = ReservedHeaders.ORIGINAL_PARTITION;
  static final String ORIGINAL_OFFSET = ReservedHeaders.ORIGINAL_OFFSET;
  static final String ORIGINAL_STORE = ReservedHeaders.ORIGINAL_STORE;

  /** On a {@code result-mismatch} dead letter: the fields that did not match, comma-separated. */
  public static final String MISMATCH = ReservedHeaders.MISMATCH;

  private final ProcessorContext<String, Object> context;

  Outputs(ProcessorContext<String, Object> context) {
    this.context = context;
  }

  /** A dispatch to {@code <ns>.handler.<handler>}, keyed by task id. */
  void dispatch(Dispatch dispatch, long now) {
    dispatch(dispatch, now, null);
  }

  /**
   * As {@link #dispatch(Dispatch, long)}, with record headers (the dispatch span's context); a task
   * with a priority other than the default also gets {@link ReservedHeaders#DISPATCH_PRIORITY}, by
   * which a worker orders the dispatches it holds.
   */
  void dispatch(Dispatch dispatch, long now, RecordHeaders headers) {
    byte[] priority = DispatchPriority.headerValue(dispatch.task());
    if (priority != null) {
      headers = headers == null ? new RecordHeaders() : headers;
      headers.add(ReservedHeaders.DISPATCH_PRIORITY, priority);
    }
    context.forward(
        new Record<String, Object>(dispatch.id(), dispatch, now, headers), Stores.SINK_DISPATCH);
  }

  /** A dead letter to {@code <ns>.handler.<handler>.dlt}: the last dispatch plus error headers. */
  void deadLetter(Dispatch last, ErrorInfo error, String reason, long now) {
    RecordHeaders headers = new RecordHeaders();
    if (error != null) {
      add(headers, ERROR_TYPE, error.type());
      add(headers, ERROR_MESSAGE, error.message());
    }
    add(headers, REASON, reason);
    context.forward(new Record<String, Object>(last.id(), last, now, headers), Stores.SINK_DLT);
  }

  /** A new task (a schedule's fire) to {@code <ns>.tasks}, keyed by its routing key. */
  public void task(TaskEnvelope task, long now) {
    context.forward(new Record<String, Object>(task.routingKey(), task, now), Stores.SINK_TASKS);
  }

  /**
   * A schedule record ({@code schedule-fire-done} to a schedule, {@code schedule-trigger} to a
   * child schedule) to {@code <ns>.tasks}, keyed by the schedule's name so that it reaches the
   * partition that owns the schedule.
   */
  public void scheduleRecord(String name, TaskTopicRecord record, long now) {
    context.forward(new Record<String, Object>(name, record, now), Stores.SINK_TASKS);
  }

  /** A control record (dependency protocol) keyed by {@code key}. */
  public void control(String key, ControlRecord command, long now) {
    context.forward(new Record<String, Object>(key, command, now), Stores.SINK_CONTROL);
  }

  /**
   * The end of a task whose unique window ends with it, to {@code <ns>.unique-releases}, keyed by
   * task id: the relay frees the window's row.
   */
  void uniqueRelease(UniqueRelease release, long now) {
    context.forward(
        new Record<String, Object>(release.taskId(), release, now), Stores.SINK_UNIQUE_RELEASES);
  }

  /**
   * An interrupt of a running attempt to {@code <ns>.interrupts}, keyed by task id: the task was
   * cancelled while DISPATCHED.
   */
  void interrupt(TaskInterrupt interrupt, long now) {
    context.forward(
        new Record<String, Object>(interrupt.id(), interrupt, now), Stores.SINK_INTERRUPTS);
  }

  /**
   * A record the scheduler could not decode or apply, as it came (raw key and value), to {@code
   * <ns>.scheduler.dlt}: headers {@link #REASON} ({@code undecodable}, {@code invalid}, {@code
   * failed}, {@code timer-failed}, {@code wrong-key}, {@code result-mismatch}), {@link
   * #ERROR_MESSAGE}, {@link #ERROR_CLASS} and, for an input record, {@link #ORIGINAL_TOPIC}, {@link
   * #ORIGINAL_PARTITION}, {@link #ORIGINAL_OFFSET}.
   */
  public void schedulerDeadLetter(
      String key, byte[] value, String reason, String message, Throwable error, long timestamp) {
    schedulerDeadLetter(key, value, reason, message, error, timestamp, null, null);
  }

  /** As above, with one more header {@code extraName} (when not null). */
  public void schedulerDeadLetter(
      String key,
      byte[] value,
      String reason,
      String message,
      Throwable error,
      long timestamp,
      String extraName,
      String extraValue) {
    RecordHeaders headers = new RecordHeaders();
    add(headers, REASON, reason);
    if (extraName != null) {
      add(headers, extraName, extraValue);
    }
    add(headers, ERROR_MESSAGE, message);
    add(headers, ERROR_CLASS, error == null ? null : error.getClass().getName());
    context
        .recordMetadata()
        .filter(m -> m.topic() != null)
        .ifPresent(
            m -> {
              add(headers, ORIGINAL_TOPIC, m.topic());
              add(headers, ORIGINAL_PARTITION, String.valueOf(m.partition()));
              add(headers, ORIGINAL_OFFSET, String.valueOf(m.offset()));
            });
    if (!headers.headers(ORIGINAL_TOPIC).iterator().hasNext()) {
      add(headers, ORIGINAL_STORE, Stores.DUE_INDEX); // a timer, fired by the punctuator
    }
    context.forward(
        new Record<String, Object>(key, value, Math.max(0, timestamp), headers),
        Stores.SINK_SCHEDULER_DLT);
  }

  private static void add(RecordHeaders headers, String name, String value) {
    if (value != null) {
      headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
  }
}
