package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A record on {@code tasklane.tasks}: a new task or a transactional cancel, told apart by the JSON
 * field {@code type} ({@code task} or {@code cancel}). Keyed by the task's routing key.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = TaskEnvelope.class, name = TaskTopicRecord.TASK_TYPE),
  @JsonSubTypes.Type(value = CancelCommand.class, name = TaskTopicRecord.CANCEL_TYPE)
})
public sealed interface TaskTopicRecord extends Versioned permits TaskEnvelope, CancelCommand {
  /** The {@code type} of a {@link TaskEnvelope}. */
  String TASK_TYPE = "task";

  /** The {@code type} of a {@link CancelCommand}. */
  String CANCEL_TYPE = "cancel";

  /** The id of the task this record is about. */
  String id();
}
