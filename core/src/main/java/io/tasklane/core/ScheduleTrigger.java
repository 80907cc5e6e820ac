package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Fire recurring schedule {@code name} now, outside its calendar. On {@code <ns>.tasks} keyed by
 * {@code name}, {@code type} {@code schedule-trigger}. The fire's tasks get ids derived from the
 * trigger ({@link TaskIds#forScheduleTrigger}), so a replayed trigger makes no second task, and the
 * fire is subject to the schedule's overlap policy like a calendar fire.
 *
 * <p>The scheduler sends one itself, keyed by each child's name, when a fire of a schedule with
 * {@code children} succeeded: then {@code parentFire} names the parent fire, {@code parent} the
 * parent schedule and the child's fire id is {@link TaskIds#forScheduleChild}(name, parentFire),
 * one child fire per parent fire. Immutable and thread-safe.
 *
 * @param v wire version
 * @param name the schedule to fire
 * @param triggerId a unique id of this request (1 to 100 characters)
 * @param requestedAt epoch millis of the request
 * @param parent the parent schedule when this starts a child, else null
 * @param parentFire the parent fire's id when this starts a child, else null
 * @param depth how many parents lead to this fire (0 for a manual trigger), at most {@link
 *     ScheduleValidator#MAX_CHILD_DEPTH}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScheduleTrigger(
    @JsonProperty(required = true) int v,
    String name,
    String triggerId,
    long requestedAt,
    String parent,
    String parentFire,
    int depth)
    implements TaskTopicRecord {

  /** A manual trigger of {@code name}. */
  public static ScheduleTrigger of(String name, String triggerId, long requestedAt) {
    return new ScheduleTrigger(Wire.VERSION, name, triggerId, requestedAt, null, null, 0);
  }

  /** The start of child {@code child} after fire {@code parentFire} of {@code parent}. */
  public static ScheduleTrigger child(
      String child, String parent, String parentFire, int depth, long requestedAt) {
    return new ScheduleTrigger(
        Wire.VERSION, child, "child:" + parentFire, requestedAt, parent, parentFire, depth);
  }

  /** True when this starts a child schedule after a parent fire succeeded. */
  @JsonIgnore
  public boolean isChild() {
    return parentFire != null;
  }

  /** The id of the fire this trigger makes. */
  @JsonIgnore
  public String fireId() {
    return isChild()
        ? TaskIds.forScheduleChild(name, parentFire)
        : TaskIds.forScheduleTrigger(name, triggerId);
  }
}
