package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.BatchPart;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch's rows on the real MariaDB: members are TASK rows with the batch header and new ids (a
 * keyed member too), each {@code enqueueAll} adds one BATCH_PART row per 5,000 members keyed {@code
 * batch:<id>}, the seal one with its callbacks; bad ids, reserved headers and callbacks with too
 * many headers are refused naming the field, writing nothing.
 */
@TasklaneStack
class BatchOutboxTest {
  final TestDb db;

  BatchOutboxTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_batch");
  }

  @BeforeEach
  void empty() {
    db.truncate();
  }

  @Test
  void membersPartsAndTheSealAreRowsOfTheTransaction() throws Exception {
    List<String> ids;
    try (Connection c = db.begin()) {
      TaskBatch batch = JdbcTaskOutbox.of(c).batch("invoices-2026-11");
      ids =
          batch.enqueueAll(
              List.of(
                  TaskRequest.to("invoice.render").payload(1),
                  TaskRequest.to("invoice.render").payload(2).key("invoice-2")));
      batch.seal(TaskRequest.to("report.email").payload("run"), null);
      c.commit();
    }
    assertThat(ids.get(1)).isNotEqualTo(TaskIds.forKey("invoice.render", "invoice-2"));
    List<Map<String, Object>> rows = db.rows();
    assertThat(rows)
        .extracting(r -> r.get("kind"))
        .containsExactly("TASK", "TASK", "BATCH_PART", "BATCH_PART");
    for (Map<String, Object> r : rows.subList(0, 2)) {
      assertThat(WireCodec.readTree((String) r.get("headers")).path(ReservedHeaders.BATCH).asText())
          .isEqualTo("invoices-2026-11");
    }
    BatchPart part = OutboxRows.toBatchPart(row(rows.get(2)));
    assertThat(part.members()).containsExactlyElementsOf(ids);
    assertThat(part.seal()).isFalse();
    assertThat(rows.get(2).get("routing_key")).isEqualTo("batch:invoices-2026-11");
    BatchPart seal = OutboxRows.toBatchPart(row(rows.get(3)));
    assertThat(seal.seal()).isTrue();
    assertThat(seal.onSuccess().handler()).isEqualTo("report.email");
    assertThat(seal.onSuccess().payload().asText()).isEqualTo("run");
    assertThat(seal.onComplete()).isNull();
  }

  @Test
  void badInputIsRefusedNamingTheFieldAndWritesNothing() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      assertThatThrownBy(() -> outbox.batch("no spaces"))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageContaining("batch");
      assertThatThrownBy(
              () ->
                  outbox.enqueue(
                      TaskRequest.to("invoice.render").header(ReservedHeaders.BATCH, "x")))
          .hasMessageContaining("headers")
          .hasMessageContaining(ReservedHeaders.BATCH);
      TaskRequest crowded = TaskRequest.to("report.email");
      for (int i = 0; i <= BatchPart.MAX_CALLBACK_HEADERS; i++) {
        crowded = crowded.header("h" + i, "v");
      }
      TaskRequest tooMany = crowded;
      assertThatThrownBy(() -> outbox.batch("run-1").seal(null, tooMany))
          .hasMessageContaining("onComplete")
          .hasMessageContaining(String.valueOf(BatchPart.MAX_CALLBACK_HEADERS));
      c.commit();
    }
    assertThat(db.rows()).isEmpty();
  }

  @Test
  void aLargeAddIsSplitIntoPartsOf5000() throws Exception {
    List<TaskRequest> many = new ArrayList<>();
    for (int i = 0; i < BatchPart.MAX_MEMBERS + 1; i++) {
      many.add(TaskRequest.to("invoice.render").payload(i));
    }
    try (Connection c = db.begin()) {
      JdbcTaskOutbox.of(c).batch("big").enqueueAll(many);
      c.commit();
    }
    List<Integer> sizes =
        db.rows().stream()
            .filter(r -> "BATCH_PART".equals(r.get("kind")))
            .map(r -> OutboxRows.toBatchPart(row(r)).members().size())
            .toList();
    assertThat(sizes).containsExactly(BatchPart.MAX_MEMBERS, 1);
  }

  private static OutboxRow row(Map<String, Object> r) {
    return OutboxRow.builder()
        .taskId((String) r.get("task_id"))
        .routingKey((String) r.get("routing_key"))
        .kind((String) r.get("kind"))
        .payload((String) r.get("payload"))
        .createdAt(((Number) r.get("created_at")).longValue())
        .build();
  }
}
