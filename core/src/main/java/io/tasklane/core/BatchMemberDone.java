package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A member of batch {@code batch} reached a terminal state. Written by the scheduler partition that
 * owns the task to {@code <ns>.tasks}, keyed by {@link BatchPart#key(String)}, {@code type} {@code
 * batch-member-done}, with the commit of the terminal state, so that it reaches the partition that
 * keeps the batch's counts. A member that finishes again (retried from DEAD) writes another; the
 * batch counts each member once, in its latest state. Immutable and thread-safe.
 *
 * @param v wire version
 * @param batch the batch's id
 * @param taskId the member
 * @param state its terminal state: {@code SUCCEEDED}, {@code DEAD} or {@code CANCELLED}
 * @param finishedAt epoch millis
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchMemberDone(
    @JsonProperty(required = true) int v,
    String batch,
    String taskId,
    TaskState state,
    long finishedAt)
    implements TaskTopicRecord {

  public static BatchMemberDone of(String batch, String taskId, TaskState state, long now) {
    return new BatchMemberDone(Wire.VERSION, batch, taskId, state, now);
  }

  /**
   * Checks the batch id, the task id and that the state is terminal.
   *
   * @throws InvalidTaskException naming the field
   */
  public BatchMemberDone validate() {
    BatchPart.checkId(batch);
    TaskIds.check("taskId", taskId);
    if (state == null || !state.isTerminal()) {
      throw new InvalidTaskException(
          "state", state + " is not terminal (SUCCEEDED, DEAD or CANCELLED)");
    }
    return this;
  }
}
