package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The typed answer of a task command ({@code POST /api/tasks/{id}/cancel|retry-dead|discard|
 * trigger}, {@link TaskActionResponse}) writes what the API answered when it built it by hand (kept
 * here as the reference), byte for byte: every action, outcome, reason and task status, a pending
 * answer without reason and state, and the same HTTP status.
 */
class TaskActionResponseTest {
  private static final String ID = "0b6c8f5e-3c1f-4d3e-9a55-1f0e6a4f2b11";
  private static final long T = TaskFixtures.T;

  @Test
  void everyAppliedAndIgnoredAnswerReadsAsBefore() {
    int compared = 0;
    for (TaskAction action : TaskAction.values()) {
      for (String outcome : List.of("applied", "ignored")) {
        for (String reason : Arrays.asList(null, "already SUCCEEDED", "is PENDING, not DEAD")) {
          for (JsonNode task : statuses()) {
            TaskActionResponse typed = TaskActionResponse.of(ID, action, outcome, reason, task);
            assertThat(WireCodec.encodeToString(typed))
                .isEqualTo(WireCodec.encodeToString(answer(ID, action, outcome, reason, task)));
            assertThat(typed.httpStatus()).isEqualTo(200);
            compared++;
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(200);
  }

  @Test
  void aPendingAnswerReadsAsBeforeWithoutReasonAndState() {
    for (TaskAction action : TaskAction.values()) {
      TaskActionResponse typed = TaskActionResponse.pending(ID, action);
      String json = WireCodec.encodeToString(typed);
      assertThat(json).isEqualTo(WireCodec.encodeToString(pending(ID, action)));
      assertThat(json).doesNotContain("reason").doesNotContain("state");
      assertThat(typed.httpStatus()).isEqualTo(202);
    }
  }

  /** Task status answers: gone, a placeholder without a state, every state, a full view. */
  private static List<JsonNode> statuses() {
    List<JsonNode> out = new ArrayList<>();
    out.add(null);
    out.add(WireCodec.readTree(TaskView.json(TaskFixtures.placeholder())));
    for (TaskState s : TaskState.values()) {
      out.add(WireCodec.readTree("{\"state\":\"" + s.name() + "\",\"updatedAt\":" + T + "}"));
    }
    out.add(WireCodec.readTree(TaskView.json(TaskFixtures.pending(T, T, TimerKind.QUEUED, T))));
    return out;
  }

  // ---- the answers as the API built them by hand, for reference ----

  private static Map<String, Object> answer(
      String id, TaskAction action, String outcome, String reason, JsonNode task) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", id);
    out.put("action", action.path);
    out.put("outcome", outcome);
    out.put("reason", reason);
    var state = TaskAction.stateOf(task);
    out.put("state", state == null ? null : state.name());
    return out;
  }

  private static Map<String, Object> pending(String id, TaskAction action) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", id);
    out.put("action", action.path);
    out.put("outcome", "pending");
    return out;
  }
}
