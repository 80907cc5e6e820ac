package io.tasklane.scheduler.internal.api;

import io.tasklane.core.ScheduleTrigger;

/**
 * {@code POST /api/schedules/{name}/trigger}: the fire was written (202); its outcome shows in
 * {@code GET /api/schedules/{name}}.
 *
 * @param name the schedule
 * @param triggerId the trigger's id, given or made up (the same id never fires twice)
 * @param fireId the fire's id
 * @param accepted always true
 */
public record ScheduleTriggerResponse(
    String name, String triggerId, String fireId, boolean accepted) {
  static ScheduleTriggerResponse of(String name, ScheduleTrigger t) {
    return new ScheduleTriggerResponse(name, t.triggerId(), t.fireId(), true);
  }
}
