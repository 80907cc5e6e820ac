package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.DurationText;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;

/**
 * What the schedule endpoints read from a request (the wait bound, a definition's JSON); a refusal
 * names the field and its limit.
 */
final class ScheduleRequests {
  private ScheduleRequests() {}

  /**
   * The wait bound of {@code ?wait=} ({@code 5s} when absent).
   *
   * @throws ScheduleCommands.Refused 400 naming {@code wait} and its limit
   */
  static long waitMs(String text) {
    if (text == null) {
      return ScheduleCommands.DEFAULT_WAIT_MS;
    }
    long ms;
    try {
      ms = DurationText.parse("wait", text);
    } catch (InvalidTaskException e) {
      throw new ScheduleCommands.Refused(400, "invalid", e.getMessage());
    }
    if (ms > ScheduleCommands.MAX_WAIT_MS) {
      throw new ScheduleCommands.Refused(
          400, "invalid", "wait: " + text + " is longer than the limit of 30s");
    }
    return ms;
  }

  /** A definition from its JSON, {@code type} and {@code v} filled in when left out. */
  static ScheduleDefinition decode(ObjectNode o) {
    if (!o.has("type")) {
      o.put("type", "schedule");
    }
    if (!o.has("v")) {
      o.put("v", io.tasklane.core.Wire.VERSION);
    }
    TaskTopicRecord r;
    try {
      r = WireCodec.decodeTaskRecord(WireCodec.encode(o));
    } catch (WireFormatException | InvalidTaskException e) {
      throw new ScheduleCommands.Refused(400, "invalid", e.getMessage());
    }
    if (!(r instanceof ScheduleDefinition d)) {
      throw new ScheduleCommands.Refused(400, "invalid", "type: must be 'schedule'");
    }
    return d;
  }
}
