package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A record on {@code tasklane.tasks}, told apart by the JSON field {@code type}: a new task ({@code
 * task}) or a transactional cancel ({@code cancel}), keyed by the task's routing key; or a
 * recurring schedule's definition ({@code schedule}) or deletion ({@code unschedule}), keyed by the
 * schedule's name.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = TaskEnvelope.class, name = TaskTopicRecord.TASK_TYPE),
  @JsonSubTypes.Type(value = CancelCommand.class, name = TaskTopicRecord.CANCEL_TYPE),
  @JsonSubTypes.Type(value = ScheduleDefinition.class, name = "schedule"),
  @JsonSubTypes.Type(value = Unschedule.class, name = "unschedule")
})
public sealed interface TaskTopicRecord extends Versioned
    permits TaskEnvelope, CancelCommand, ScheduleDefinition, Unschedule {
  /** The {@code type} of a {@link TaskEnvelope}. */
  String TASK_TYPE = "task";

  /** The {@code type} of a {@link CancelCommand}. */
  String CANCEL_TYPE = "cancel";

  /** The id of the task this record is about; null for a schedule record. */
  default String id() {
    return null;
  }
}
