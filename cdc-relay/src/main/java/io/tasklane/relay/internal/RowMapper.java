package io.tasklane.relay.internal;

import io.tasklane.core.BatchPart;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.TasklaneException;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import java.nio.charset.StandardCharsets;

/**
 * Maps outbox rows to wire records ({@link OutboxRows}), validating tasks with {@link
 * TaskValidator} and schedule rows with {@link ScheduleValidator} (the scheduler's own check, so a
 * definition it would refuse is dead-lettered here, at the hop that can name the row). Never throws
 * for a bad row: it answers {@link Mapped.Rejected} with the reason. Stateless and thread-safe.
 */
final class RowMapper {
  private final String table;
  private final TaskValidator validator;
  private final ScheduleValidator schedules;

  RowMapper(String table, TaskLimits limits) {
    this.table = table;
    this.validator = new TaskValidator(limits);
    this.schedules = new ScheduleValidator(limits);
  }

  Mapped map(OutboxRow row, long nowMs) {
    try {
      if (row.routingKey() == null || row.routingKey().isEmpty()) {
        return new Mapped.Rejected("routing_key: is empty");
      }
      return switch (OutboxKind.parse(row.kind())) {
        case TASK -> task(row, nowMs);
        case CANCEL -> cancel(row);
        case SCHEDULE -> schedule(row);
        case UNSCHEDULE -> unschedule(row);
        case BATCH_PART -> batchPart(row);
        case BATCH ->
            throw new IllegalArgumentException(
                "kind: a BATCH row is mapped element by element (OutboxBatches.unpack)");
      };
    } catch (TasklaneException | IllegalArgumentException e) {
      return new Mapped.Rejected(e.getMessage());
    }
  }

  private Mapped task(OutboxRow row, long nowMs) {
    TaskEnvelope task = OutboxRows.toTask(row, table);
    int payloadBytes =
        row.payload() == null ? 4 : row.payload().getBytes(StandardCharsets.UTF_8).length;
    validator.validate(task, payloadBytes, nowMs);
    byte[] value = WireCodec.encode(task);
    int recordBytes = value.length + row.routingKey().getBytes(StandardCharsets.UTF_8).length;
    if (recordBytes > TaskLimits.MAX_RECORD_BYTES) {
      return new Mapped.Rejected(
          "record: the encoded task is "
              + recordBytes
              + " bytes; the limit is "
              + TaskLimits.MAX_RECORD_BYTES
              + " bytes (the 1 MiB payload cap plus "
              + TaskLimits.MAX_ENVELOPE_OVERHEAD_BYTES
              + " for the other fields)");
    }
    return new Mapped.Relayed(row.routingKey(), value, OutboxKind.TASK);
  }

  private Mapped cancel(OutboxRow row) {
    CancelCommand cancel = OutboxRows.toCancel(row);
    String reason = cancel.reason();
    if (reason != null && reason.length() > TaskLimits.MAX_CANCEL_REASON_CHARS) {
      return new Mapped.Rejected(
          "reason: is "
              + reason.length()
              + " characters; the limit is "
              + TaskLimits.MAX_CANCEL_REASON_CHARS
              + " (as TaskOutbox.cancel enforces)");
    }
    return new Mapped.Relayed(row.routingKey(), WireCodec.encode(cancel), OutboxKind.CANCEL);
  }

  /**
   * The definition keyed by its name, checked as the scheduler checks it. The payload's JSON goes
   * out as written (fields this relay does not know are kept for the scheduler).
   */
  private Mapped schedule(OutboxRow row) {
    ScheduleDefinition d = OutboxRows.toSchedule(row);
    byte[] value = row.payload().getBytes(StandardCharsets.UTF_8);
    schedules.validate(d, value.length);
    return new Mapped.Relayed(row.routingKey(), value, OutboxKind.SCHEDULE);
  }

  /** A batch's members or seal, keyed by {@code batch:<id>}, checked as the scheduler checks it. */
  private Mapped batchPart(OutboxRow row) {
    BatchPart part = OutboxRows.toBatchPart(row).validate();
    if (part.onSuccess() != null) {
      validator.validate(part.onSuccess(), 4, part.createdAt());
    }
    if (part.onComplete() != null) {
      validator.validate(part.onComplete(), 4, part.createdAt());
    }
    byte[] value = row.payload().getBytes(StandardCharsets.UTF_8);
    if (value.length > TaskLimits.MAX_RECORD_BYTES) {
      return new Mapped.Rejected(
          "payload: the batch part is "
              + value.length
              + " bytes; the limit is "
              + TaskLimits.MAX_RECORD_BYTES);
    }
    return new Mapped.Relayed(row.routingKey(), value, OutboxKind.BATCH_PART);
  }

  private Mapped unschedule(OutboxRow row) {
    schedules.validate(OutboxRows.toUnschedule(row));
    byte[] value = row.payload().getBytes(StandardCharsets.UTF_8);
    return new Mapped.Relayed(row.routingKey(), value, OutboxKind.UNSCHEDULE);
  }
}
