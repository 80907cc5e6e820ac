package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A record on {@code tasklane.tasks}: a new task or a transactional cancel, told apart by the JSON
 * field {@code type} ({@code task} or {@code cancel}). Keyed by the task's routing key.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = TaskEnvelope.class, name = "task"),
  @JsonSubTypes.Type(value = CancelCommand.class, name = "cancel")
})
public sealed interface TaskTopicRecord extends Versioned permits TaskEnvelope, CancelCommand {
  /** The id of the task this record is about. */
  String id();
}
