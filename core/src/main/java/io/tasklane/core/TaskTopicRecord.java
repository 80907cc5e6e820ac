package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A record on {@code tasklane.tasks}, told apart by the JSON field {@code type}: a new task ({@code
 * task}) or a transactional cancel ({@code cancel}), keyed by the task's routing key; or a
 * recurring schedule's definition ({@code schedule}), deletion ({@code unschedule}), manual or
 * child fire ({@code schedule-trigger}) or a fire's finished task ({@code schedule-fire-done}),
 * keyed by the schedule's name; or a batch's members and seal ({@code batch-part}) or a member's
 * end ({@code batch-member-done}), keyed by {@code batch:<id>}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = TaskEnvelope.class, name = TaskTopicRecord.TASK_TYPE),
  @JsonSubTypes.Type(value = CancelCommand.class, name = TaskTopicRecord.CANCEL_TYPE),
  @JsonSubTypes.Type(value = ScheduleDefinition.class, name = "schedule"),
  @JsonSubTypes.Type(value = Unschedule.class, name = "unschedule"),
  @JsonSubTypes.Type(value = ScheduleTrigger.class, name = "schedule-trigger"),
  @JsonSubTypes.Type(value = ScheduleFireDone.class, name = "schedule-fire-done"),
  @JsonSubTypes.Type(value = BatchPart.class, name = "batch-part"),
  @JsonSubTypes.Type(value = BatchMemberDone.class, name = "batch-member-done")
})
public sealed interface TaskTopicRecord extends Versioned
    permits TaskEnvelope,
        CancelCommand,
        ScheduleDefinition,
        Unschedule,
        ScheduleTrigger,
        ScheduleFireDone,
        BatchPart,
        BatchMemberDone {
  /** The {@code type} of a {@link TaskEnvelope}. */
  String TASK_TYPE = "task";

  /** The {@code type} of a {@link CancelCommand}. */
  String CANCEL_TYPE = "cancel";

  /** The id of the task this record is about; null for a schedule record. */
  default String id() {
    return null;
  }
}
