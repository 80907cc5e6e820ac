package io.tasklane.core;

import java.util.List;

/**
 * Every header name Tasklane itself reads or writes, in one place: the task headers the scheduler
 * and the outbox set on a task (a handler sees them in its context's headers), and the Kafka record
 * headers the relay, the scheduler and the worker put on the dead letters they write. The modules
 * refer to these constants instead of spelling the names. A task's own settings are not headers:
 * they travel as {@link TaskOptions}. Constants only; any thread.
 */
public final class ReservedHeaders {
  // Task headers (TaskEnvelope#headers)

  /** Task header: the W3C trace context of the enqueue, set by the outbox. */
  public static final String TRACEPARENT = "traceparent";

  /** Task header: the schedule a fire's task came from. */
  public static final String SCHEDULE = "tasklane.schedule";

  /** Task header: the fire instant (epoch millis) of a fire's task. */
  public static final String FIRE_TIME = "tasklane.fire-time";

  /** Task header: the fire's id, which its finished-task notices name. */
  public static final String FIRE_ID = "tasklane.fire-id";

  /** Task header: the parent fire's id on the tasks of a child schedule's fire. */
  public static final String PARENT_FIRE = "tasklane.parent-fire";

  /** Task header: the batch a task is a member of (set by the outbox's batch). */
  public static final String BATCH = "tasklane.batch";

  /** Task header: on a batch's callback task, the batch it reports on. */
  public static final String BATCH_CALLBACK = "tasklane.batch-callback";

  /** Task header: on a batch's callback task, {@code success} or {@code complete}. */
  public static final String BATCH_EVENT = "tasklane.batch-event";

  /**
   * Task header: on a batch's callback task, the members' counts when it was made, e.g. {@code
   * total=10000,succeeded=9998,dead=1,cancelled=1}.
   */
  public static final String BATCH_COUNTS = "tasklane.batch-counts";

  // Record headers of dispatches (<ns>.handler.<handler>)

  /**
   * Dispatch: the task's priority, one digit {@code 0}–{@code 9}, set only when it is not the
   * default: a worker starts the dispatches it holds highest priority first ({@link
   * DispatchPriority}).
   */
  public static final String DISPATCH_PRIORITY = "tasklane.priority";

  // Record headers of the relay's dead letters (<ns>.relay.dlt)

  /** Relay dead letter: the outbox row id ({@code -1} when it could not be read). */
  public static final String RELAY_ROW_ID = "tasklane.relay.row-id";

  /** Relay dead letter: why the row was not relayed, naming the column. */
  public static final String RELAY_REASON = "tasklane.relay.reason";

  /** Relay dead letter: the outbox table the row came from. */
  public static final String RELAY_TABLE = "tasklane.relay.table";

  // Record headers of the scheduler's and the worker's dead letters

  /** Dead letter: the type of the last error (scheduler). */
  public static final String ERROR_TYPE = "tasklane.error.type";

  /** Dead letter: the message of the last error (scheduler and worker). */
  public static final String ERROR_MESSAGE = "tasklane.error.message";

  /** Dead letter: the class of the exception that refused the record. */
  public static final String ERROR_CLASS = "tasklane.error.class";

  /** Dead letter: why the task or record went dead, e.g. {@code attempts exhausted}. */
  public static final String REASON = "tasklane.reason";

  /** Dead letter: the topic of the refused record. */
  public static final String ORIGINAL_TOPIC = "tasklane.original.topic";

  /** Dead letter: the partition of the refused record. */
  public static final String ORIGINAL_PARTITION = "tasklane.original.partition";

  /** Dead letter: the offset of the refused record. */
  public static final String ORIGINAL_OFFSET = "tasklane.original.offset";

  /** Scheduler dead letter: the state store whose record was refused. */
  public static final String ORIGINAL_STORE = "tasklane.original.store";

  /** Scheduler dead letter of a {@code result-mismatch}: the fields that did not match. */
  public static final String MISMATCH = "tasklane.mismatch";

  /** Worker dead letter: the worker that wrote it. */
  public static final String WORKER = "tasklane.worker";

  /** Worker dead letter: why the copy was truncated (the full copy was refused). */
  public static final String TRUNCATED = "tasklane.truncated";

  /** The task headers above, which Tasklane sets on tasks. */
  public static final List<String> TASK_HEADERS =
      List.of(
          TRACEPARENT,
          SCHEDULE,
          FIRE_TIME,
          FIRE_ID,
          PARENT_FIRE,
          BATCH,
          BATCH_CALLBACK,
          BATCH_EVENT,
          BATCH_COUNTS);

  /** Every record header name above, which Tasklane writes on dispatches and dead letters. */
  public static final List<String> RECORD_HEADERS =
      List.of(
          DISPATCH_PRIORITY,
          RELAY_ROW_ID,
          RELAY_REASON,
          RELAY_TABLE,
          ERROR_TYPE,
          ERROR_MESSAGE,
          ERROR_CLASS,
          REASON,
          ORIGINAL_TOPIC,
          ORIGINAL_PARTITION,
          ORIGINAL_OFFSET,
          ORIGINAL_STORE,
          MISMATCH,
          WORKER,
          TRUNCATED);

  private ReservedHeaders() {}
}
