package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The typed answers of {@code GET /api/tasks} ({@link TaskListingResponse}) and {@code GET
 * /api/tasks/counts} ({@link TaskCountsResponse}) write what the API answered when it built them by
 * hand (kept here as the reference), byte for byte, on many rows and pages; and another instance
 * reads the typed rows back as the rows they were.
 */
class TaskListingResponseTest {
  private static final long T = TaskFixtures.T;

  @Test
  void manyPagesReadAsBefore() {
    Random random = new Random(42);
    for (TaskQuery.Sort sort : TaskQuery.Sort.values()) {
      for (int page = 0; page < 20; page++) {
        List<TaskRow> rows = new ArrayList<>();
        int n = random.nextInt(60);
        for (int i = 0; i < n; i++) {
          rows.add(row(random));
        }
        SearchPosition next =
            random.nextBoolean()
                ? null
                : new SearchPosition(random.nextLong(T), UUID.randomUUID().toString());
        TaskSearch.Result r =
            new TaskSearch.Result(
                random.nextInt(4) == 0 ? 0 : T + random.nextInt(1_000_000),
                rows,
                random.nextBoolean(),
                random.nextInt(100_000),
                next);

        String typed = WireCodec.encodeToString(TaskListingResponse.of(r, sort));

        assertThat(typed).isEqualTo(before(r, sort));
        assertThat(WireCodec.readTree(typed)).isEqualTo(WireCodec.readTree(before(r, sort)));
      }
    }
  }

  @Test
  void aMergedPageOfRecordAndIndexRowsReadsAsBefore() {
    TaskRecord failed = TaskFixtures.dead();
    TaskRecord fresh = TaskFixtures.pending(0, -1, null, T + 1);
    List<TaskRow> local =
        List.of(
            TaskRow.of(failed.task().id(), failed),
            TaskRow.of(fresh.task().id(), fresh),
            TaskRow.ofEntry("a-1", TaskState.DEAD, "mail", T + 5, null, T - 5),
            TaskRow.ofEntry("a-2", TaskState.CANCELLED, "mail", T + 6, "customer-9", 0));
    TaskQuery q =
        TaskQuery.parse(
            Map.of("limit", List.of("3"), "sort", List.of("updated")),
            T + 10_000,
            new Redactor(ApiSettings.DEFAULT),
            Role.ADMIN);
    TaskSearch.Result r =
        TaskSearch.merge(
            q,
            List.of(
                new LocalTaskSearch.Page(local.subList(0, 2), false, 7, null),
                new LocalTaskSearch.Page(local.subList(2, 4), true, 9, null)));

    String typed = WireCodec.encodeToString(TaskListingResponse.of(r, q.sort()));

    assertThat(r.rows()).hasSize(3);
    assertThat(r.next()).isNotNull();
    assertThat(typed).isEqualTo(before(r, q.sort()));
    JsonNode tree = WireCodec.readTree(typed);
    assertThat(tree.path("nextCursor").asText()).isEqualTo(r.next().encode(q.sort()));
    assertThat(tree.path("tasks").get(0).path("errorType").asText()).isEqualTo("Timeout");
    assertThat(tree.path("tasks").get(0).path("routingKey").asText()).isEqualTo("customer-7");
  }

  @Test
  void anotherInstanceReadsTheTypedRowsBackAsTheyWere() {
    Random random = new Random(7);
    List<TaskRow> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(row(random));
    }
    TaskSearch.Result r = new TaskSearch.Result(T, rows, false, 200, null);
    JsonNode page = WireCodec.readTree(WireCodec.encodeToString(TaskListingResponse.of(r, null)));

    List<TaskRow> back = new ArrayList<>();
    page.path("tasks")
        .forEach(t -> back.add(WireCodec.treeToValue(t, TaskListingResponse.Row.class).row()));

    assertThat(back).isEqualTo(rows);
  }

  @Test
  void countsReadAsBefore() {
    Random random = new Random(3);
    for (int round = 0; round < 50; round++) {
      Map<String, Map<TaskState, Long>> sum = new TreeMap<>();
      int handlers = random.nextInt(6);
      for (int h = 0; h < handlers; h++) {
        Map<TaskState, Long> byState = new TreeMap<>();
        for (TaskState s : TaskState.values()) {
          if (random.nextBoolean()) {
            byState.put(s, random.nextInt(3) == 0 ? 1L : random.nextLong(10_000_000_000L));
          }
        }
        sum.put("handler-" + h, byState);
      }
      long now = T + random.nextInt(1_000_000);
      for (String handler : new String[] {null, "handler-0", "handler-2", "other"}) {
        String typed = WireCodec.encodeToString(TaskCountsResponse.of(now, sum, handler));
        assertThat(typed).isEqualTo(countsBefore(now, sum, handler));
      }
    }
  }

  private static TaskRow row(Random random) {
    TaskState[] states = TaskState.values();
    String id = UUID.randomUUID().toString();
    return new TaskRow(
        id,
        "handler-" + random.nextInt(5),
        random.nextBoolean() ? null : "key-" + random.nextInt(1000),
        states[random.nextInt(states.length)],
        random.nextBoolean() ? id : "customer-" + random.nextInt(100),
        random.nextInt(5) == 0 ? 0 : T - random.nextInt(1_000_000),
        T + random.nextInt(1_000_000),
        random.nextInt(3) == 0 ? 0 : T + random.nextInt(5_000_000),
        random.nextInt(4),
        random.nextBoolean() ? null : "Error" + random.nextInt(3));
  }

  // ---- the answers as the API built them by hand, for reference ----

  private static String before(TaskSearch.Result r, TaskQuery.Sort sort) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("asOf", r.asOf());
    m.put("asOfIso", Instant.ofEpochMilli(r.asOf()).toString());
    m.put("tasks", r.rows().stream().map(TaskListingResponseTest::rowBefore).toList());
    m.put("nextCursor", r.next() == null ? null : r.next().encode(sort));
    m.put("partial", r.partial());
    m.put("scanned", r.scanned());
    return WireCodec.encodeToString(m);
  }

  private static Map<String, Object> rowBefore(TaskRow r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.id());
    m.put("handler", r.handler());
    m.put("key", r.key());
    m.put("state", r.state().name());
    m.put("routingKey", r.routingKey());
    time(m, "createdAt", r.createdAt());
    time(m, "updatedAt", r.updatedAt());
    time(m, "dueAt", r.dueAt());
    m.put("attempt", r.attempt());
    m.put("errorType", r.errorType());
    return m;
  }

  private static void time(Map<String, Object> m, String name, long millis) {
    m.put(name, millis);
    m.put(name + "Iso", millis > 0 ? Instant.ofEpochMilli(millis).toString() : null);
  }

  private static String countsBefore(
      long now, Map<String, Map<TaskState, Long>> sum, String handler) {
    List<Map<String, Object>> rows = new ArrayList<>();
    sum.forEach(
        (h, byState) -> {
          if (handler == null || handler.equals(h)) {
            byState.forEach(
                (s, n) -> {
                  Map<String, Object> row = new LinkedHashMap<>();
                  row.put("handler", h);
                  row.put("state", s.name());
                  row.put("count", n);
                  row.put("estimated", false);
                  rows.add(row);
                });
          }
        });
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("asOf", now);
    m.put("asOfIso", Instant.ofEpochMilli(now).toString());
    m.put("counts", rows);
    return WireCodec.encodeToString(m);
  }
}
