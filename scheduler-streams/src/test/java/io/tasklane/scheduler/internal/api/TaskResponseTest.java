package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Shard;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.AttemptEntry;
import io.tasklane.scheduler.internal.lifecycle.RefusedDuplicate;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import io.tasklane.scheduler.internal.lifecycle.Waiter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The typed answer of {@code GET /api/tasks/{id}} writes what the API answered when it serialised
 * the store record itself (kept here as the reference), field for field and in order, except the
 * nonce, which it never shows.
 */
class TaskResponseTest {
  private static final long T = TaskFixtures.T;

  @Test
  void aFullRecordReadsAsBeforeWithoutItsNonce() {
    TaskEnvelope task =
        Driver.task(T + 5_000).toBuilder()
            .key("order-42")
            .orderingKey("customer-7")
            .createdAt(T - 1_000)
            .source(new Source("tasklane_outbox", 17))
            .shard(new Shard(1, 3))
            .headers(Map.of("tasklane.schedule", "nightly", "tasklane.fire-id", "f-1"))
            .build();
    TaskRecord r =
        new TaskRecord(
            task,
            TaskState.RETRYING,
            2,
            1,
            1,
            T + 60_000,
            T + 30_000,
            T + 60_000,
            TimerKind.DUE,
            new ErrorInfo("boom", "it failed", "at x"),
            null,
            List.of(
                new AttemptEntry(1, T, T + 100, "FAILED", "it failed", "w-1"),
                new AttemptEntry(2, T + 200, 0, null, null, null)),
            List.of("dep-1"),
            List.of(new Waiter("w-9", "k-9")),
            List.of("p-1"),
            T + 300,
            0,
            2,
            new RefusedDuplicate(T + 400, T - 5, new Source("tasklane_outbox", 18), "mail", T + 9),
            T + 500,
            "a-secret-nonce");

    JsonNode typed = WireCodec.readTree(TaskView.json(r));

    assertThat(typed).isEqualTo(before(r));
    assertThat(TaskFixtures.fieldNames(typed)).isEqualTo(TaskFixtures.fieldNames(before(r)));
    assertThat(typed.toString()).doesNotContain("a-secret-nonce").doesNotContain("nonce");
    assertThat(typed.path("dueAtIso").asText())
        .isEqualTo(Instant.ofEpochMilli(T + 60_000).toString());
    assertThat(typed.path("task").path("createdAtIso").asText())
        .isEqualTo(Instant.ofEpochMilli(T - 1_000).toString());
    assertThat(typed.path("schedule").path("name").asText()).isEqualTo("nightly");
  }

  @Test
  void aPlaceholderAFreshAndADeadTaskReadAsBefore() {
    for (TaskRecord r :
        List.of(
            TaskFixtures.placeholder(),
            TaskFixtures.pending(T, -1, null, T),
            TaskFixtures.dead())) {
      JsonNode typed = WireCodec.readTree(TaskView.json(r));
      assertThat(typed).isEqualTo(before(r));
      assertThat(TaskFixtures.fieldNames(typed)).isEqualTo(TaskFixtures.fieldNames(before(r)));
    }
  }

  // ---- the answer as the API built it from the store record, for reference ----

  private static final Set<String> TIME_FIELDS =
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

  private static JsonNode before(TaskRecord record) {
    JsonNode tree = WireCodec.mapper().valueToTree(record);
    if (tree instanceof ObjectNode o) {
      o.remove("nonce");
    }
    addIso(tree);
    Map<String, String> headers = record.task() == null ? Map.of() : record.task().headers();
    if (headers.containsKey("tasklane.schedule") && tree instanceof ObjectNode o) {
      ObjectNode schedule = o.putObject("schedule");
      schedule.put("name", headers.get("tasklane.schedule"));
      schedule.put("fireId", headers.get("tasklane.fire-id"));
    }
    return WireCodec.readTree(WireCodec.encodeToString(tree));
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
          withTwins.put(
              f.getKey() + "Iso", TextNode.valueOf(Instant.ofEpochMilli(v.asLong()).toString()));
        } else if (!"payload".equals(f.getKey())) {
          addIso(v);
        }
      }
      o.removeAll();
      o.setAll(withTwins);
    } else if (node.isArray()) {
      node.forEach(TaskResponseTest::addIso);
    }
  }
}
