package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.BatchMemberDone;
import io.tasklane.core.BatchPart;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.batches.BatchBook;
import io.tasklane.scheduler.internal.batches.BatchNotices;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.TaskLifecycle;
import io.tasklane.scheduler.internal.schedules.ScheduleMachine;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hop 1, {@code <ns>.tasks}: decodes, validates and checks the key of each record, then hands new
 * tasks and transactional cancels to the {@link TaskLifecycle} and schedule records to the {@link
 * ScheduleMachine}. Used on the stream task's thread ({@link TaskProcessor}).
 */
final class AdmissionInput {
  private static final TaskValidator VALIDATOR =
      new TaskValidator(new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));
  private static final ScheduleValidator SCHEDULES =
      new ScheduleValidator(new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));

  private final Engine engine;
  private final ProcessorContext<String, Object> context;
  private final TaskLifecycle tasks;
  private final ScheduleMachine schedules;
  private final BatchBook batches;
  private final Inputs inputs;

  AdmissionInput(
      ProcessorContext<String, Object> context,
      TaskLifecycle tasks,
      ScheduleMachine schedules,
      BatchBook batches) {
    this.engine = tasks.engine;
    this.context = context;
    this.tasks = tasks;
    this.schedules = schedules;
    this.batches = batches;
    this.inputs = new Inputs("tasks", engine, tasks.out);
  }

  /** Handles one record of {@code <ns>.tasks}. */
  void handle(Record<String, byte[]> record) {
    TaskTopicRecord value = inputs.decode(record, WireCodec::decodeTaskRecord);
    if (value == null) {
      return;
    }
    long now = context.currentSystemTimeMs();
    inputs.guard(
        record,
        () -> {
          if (value instanceof TaskEnvelope task) {
            if (inputs.keyIs(record, task.routingKey(), "the task's routing key")) {
              engine
                  .spans()
                  .admit(
                      task,
                      record.key(),
                      context.recordMetadata().orElse(null),
                      () -> admit(record, task, now));
            }
          } else if (value instanceof CancelCommand c && ControlChecks.invalid(c) != null) {
            // No tombstone is kept for something that is not a task id.
            inputs.reject(record, ControlChecks.invalid(c), null);
          } else if (value instanceof CancelCommand cancel
              && inputs.keyIs(
                  record, tasks.routingKeyOf(cancel.id()), "the routing key of its task")) {
            tasks.cancel(cancel.id(), cancel.reason(), now);
          } else if (value instanceof ScheduleDefinition d
              && inputs.keyIs(record, d.name(), "the schedule's name")) {
            define(record, d, now);
          } else if (value instanceof Unschedule u
              && inputs.keyIs(record, u.name(), "the schedule's name")) {
            try {
              schedules.unschedule(SCHEDULES.validate(u), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "unschedule " + u.name() + ": " + e.getMessage(), e);
            }
          } else if (value instanceof ScheduleTrigger t
              && inputs.keyIs(record, t.name(), "the schedule's name")) {
            try {
              schedules.trigger(SCHEDULES.validate(t), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "schedule-trigger " + t.name() + ": " + e.getMessage(), e);
            }
          } else if (value instanceof ScheduleFireDone f
              && inputs.keyIs(record, f.name(), "the schedule's name")) {
            try {
              schedules.fireDone(SCHEDULES.validate(f), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "schedule-fire-done " + f.name() + ": " + e.getMessage(), e);
            }
          } else if (value instanceof BatchPart p
              && inputs.keyIs(record, BatchPart.key(p.batch()), "the batch's key")) {
            batchPart(record, p, now);
          } else if (value instanceof BatchMemberDone d
              && inputs.keyIs(record, BatchPart.key(d.batch()), "the batch's key")) {
            try {
              batches.memberDone(d.validate(), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "batch-member-done " + d.batch() + ": " + e.getMessage(), e);
            }
          }
        });
  }

  private void batchPart(Record<String, byte[]> record, BatchPart p, long now) {
    String refused;
    try {
      refused = batches.part(p.validate(), now);
    } catch (InvalidTaskException e) {
      refused = e.getMessage();
    }
    if (refused != null) {
      inputs.reject(record, "batch-part " + p.batch() + ": " + refused, null);
    }
  }

  private void define(Record<String, byte[]> record, ScheduleDefinition d, long now) {
    try {
      schedules.define(SCHEDULES.validate(d, record.value().length), now);
    } catch (InvalidTaskException e) {
      inputs.reject(record, "schedule " + d.name() + ": " + e.getMessage(), e);
    }
  }

  private void admit(Record<String, byte[]> record, TaskEnvelope task, long now) {
    try {
      VALIDATOR.validate(task, record.value().length, now);
    } catch (InvalidTaskException e) {
      inputs.reject(record, "task " + task.id() + ": " + e.getMessage(), e);
      BatchNotices.refused(task, now, tasks.out);
      return;
    }
    tasks.admit(task, now);
  }
}
