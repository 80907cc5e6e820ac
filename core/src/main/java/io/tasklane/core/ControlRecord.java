package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A control record, keyed by the routing key of the task named by {@link #id()}: operator commands
 * from the console, API or CLI on {@code <ns>.control} ({@code cancel}, {@code retry-dead}, {@code
 * trigger}, {@code discard}), and the scheduler's own dependency protocol ({@code await} / {@code
 * dependency-done}, and the rate-limit protocol, {@code rate-ask} / {@code rate-answer}) on {@code
 * <ns>.dependencies}, which only the scheduler may write. The scheduler refuses each kind on the
 * other topic, and any record whose ids are not task ids.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = CancelCommand.class, name = "cancel"),
  @JsonSubTypes.Type(value = ControlCommand.RetryDead.class, name = "retry-dead"),
  @JsonSubTypes.Type(value = ControlCommand.Trigger.class, name = "trigger"),
  @JsonSubTypes.Type(value = ControlCommand.Discard.class, name = "discard"),
  @JsonSubTypes.Type(value = ControlCommand.Await.class, name = "await"),
  @JsonSubTypes.Type(value = ControlCommand.DependencyDone.class, name = "dependency-done"),
  @JsonSubTypes.Type(value = ControlCommand.RateAsk.class, name = "rate-ask"),
  @JsonSubTypes.Type(value = ControlCommand.RateAnswer.class, name = "rate-answer")
})
public sealed interface ControlRecord extends Versioned
    permits CancelCommand,
        ControlCommand.RetryDead,
        ControlCommand.Trigger,
        ControlCommand.Discard,
        ControlCommand.Await,
        ControlCommand.DependencyDone,
        ControlCommand.RateAsk,
        ControlCommand.RateAnswer {
  /** The id of the task that must receive this record (the record's key routes to it). */
  String id();
}
