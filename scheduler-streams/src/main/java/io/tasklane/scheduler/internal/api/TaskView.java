package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.schedules.ScheduleMachine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The status API's JSON of one task: the stored record ({@link TaskRecord}, fields unchanged, epoch
 * millis) with an ISO-8601 UTC twin next to every time, e.g. {@code "dueAt":1767225600000,
 * "dueAtIso":"2026-01-01T00:00:00Z"}, in the record, its envelope, its history and its last refused
 * duplicate. Times of 0 or less (not set) get no twin. A task a schedule fired also has {@code
 * "schedule":{"name","fireId"}} (from its envelope's headers). The current dispatch's nonce is left
 * out: it is what lets a result settle the attempt.
 */
public final class TaskView {
  /** The fields holding epoch millis. */
  static final Set<String> TIME_FIELDS =
      Set.of(
          "dueAt",
          "deadline",
          "timerAt",
          "updatedAt",
          "finishedAt",
          "createdAt",
          "refusedAt",
          "waitTimedOutAt",
          "dispatchedAt",
          "endedAt");

  private TaskView() {}

  public static String json(TaskRecord record) {
    JsonNode tree = WireCodec.mapper().valueToTree(record);
    if (tree instanceof ObjectNode o) {
      o.remove("nonce");
    }
    addIso(tree);
    Map<String, String> headers = record.task() == null ? Map.of() : record.task().headers();
    if (headers.containsKey(ScheduleMachine.HEADER_SCHEDULE) && tree instanceof ObjectNode o) {
      ObjectNode schedule = o.putObject("schedule");
      schedule.put("name", headers.get(ScheduleMachine.HEADER_SCHEDULE));
      schedule.put("fireId", headers.get(ScheduleMachine.HEADER_FIRE_ID));
    }
    return WireCodec.encodeToString(tree);
  }

  private static void addIso(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      o.fields().forEachRemaining(fields::add);
      Map<String, JsonNode> withTwins = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> f : fields) {
        JsonNode v = f.getValue();
        withTwins.put(f.getKey(), v);
        if (TIME_FIELDS.contains(f.getKey()) && v.isIntegralNumber() && v.asLong() > 0) {
          String iso = Instant.ofEpochMilli(v.asLong()).toString();
          withTwins.put(f.getKey() + "Iso", TextNode.valueOf(iso));
        } else if (!"payload".equals(f.getKey())) {
          addIso(v); // the handler's payload is the application's, left as it is
        }
      }
      o.removeAll();
      o.setAll(withTwins);
    } else if (node.isArray()) {
      node.forEach(TaskView::addIso);
    }
  }
}
