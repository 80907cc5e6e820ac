package io.tasklane.core.outbox;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.Unschedule;
import java.util.Optional;

/**
 * What an outbox row asks for, stored in its {@link OutboxColumn#KIND} column: a new task, a
 * transactional cancel, or a recurring schedule's definition or deletion. The column is a {@code
 * VARCHAR(16)} without a CHECK constraint, so a kind added here needs no schema change. Immutable;
 * any thread.
 */
public enum OutboxKind {
  /** A new task: the row becomes a {@link TaskEnvelope}. */
  TASK(TaskTopicRecord.TASK_TYPE),
  /** A cancel of a task: the row becomes a {@link CancelCommand}. */
  CANCEL(TaskTopicRecord.CANCEL_TYPE),
  /**
   * A recurring schedule's definition: the row becomes a {@link ScheduleDefinition} keyed by the
   * schedule's name.
   */
  SCHEDULE("schedule"),
  /** A recurring schedule's deletion: the row becomes an {@link Unschedule} keyed by the name. */
  UNSCHEDULE("unschedule"),
  /**
   * Several tasks in one row ({@link OutboxBatches}): the relay publishes one {@code task} record
   * per task, in order, as if each had had a row of its own. Its {@code recordType} is only the
   * relay's metric tag: no record on {@code <ns>.tasks} has it.
   */
  BATCH("batch"),
  /**
   * Members added to a task batch, or its seal: the row becomes a {@link
   * io.tasklane.core.BatchPart} keyed by {@code batch:<id>}.
   */
  BATCH_PART("batch-part");

  private static final String EXPECTED = "TASK, CANCEL, SCHEDULE, UNSCHEDULE, BATCH or BATCH_PART";

  private final String recordType;

  OutboxKind(String recordType) {
    this.recordType = recordType;
  }

  /**
   * The value of the {@code kind} column: {@code TASK}, {@code CANCEL}, {@code SCHEDULE} or {@code
   * UNSCHEDULE}.
   */
  public String column() {
    return name();
  }

  /**
   * The {@code type} of the record this kind becomes on {@code tasklane.tasks} ({@code task},
   * {@code cancel}, {@code schedule} or {@code unschedule}); also the relay's {@code kind} metric
   * tag.
   */
  public String recordType() {
    return recordType;
  }

  /** The kind stored as {@code column}, or empty for any other value (null included). */
  public static Optional<OutboxKind> ofColumn(String column) {
    for (OutboxKind kind : values()) {
      if (kind.column().equals(column)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }

  /**
   * The kind stored as {@code column}.
   *
   * @throws IllegalArgumentException naming the column and the value when it is no kind
   */
  public static OutboxKind parse(String column) {
    return ofColumn(column)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "kind: unknown kind '" + column + "' (expected " + EXPECTED + ")"));
  }
}
