package io.tasklane.core.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Packing TASK rows into BATCH rows and back: order, bounds and the refusal of forged payloads. */
class OutboxBatchesTest {

  private static OutboxRow task(int i, String payload) {
    return OutboxRow.builder()
        .taskId(String.format("00000000-0000-4000-8000-%012d", i))
        .routingKey(i % 2 == 0 ? "order-" + i : String.format("00000000-0000-4000-8000-%012d", i))
        .kind(OutboxKind.TASK)
        .handler("mail.send")
        .taskKey(i % 3 == 0 ? null : "k" + i)
        .payload(payload)
        .dueAt(1_000 + i)
        .maxAttempts(3)
        .timeoutMs(30_000)
        .backoff(i % 4 == 0 ? "{\"type\":\"fixed\",\"delayMs\":1000}" : null)
        .dependsOn(null)
        .headers(i % 5 == 0 ? "{\"traceparent\":\"00-abc-def-01\"}" : null)
        .createdAt(500 + i)
        .options(i % 7 == 0 ? "{\"v\":1,\"waitTimeoutMs\":60000}" : null)
        .build();
  }

  private static List<OutboxRow> tasks(int n) {
    List<OutboxRow> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(task(i, "{\"n\":" + i + ",\"text\":\"é \\\" ok\"}"));
    }
    return rows;
  }

  @Test
  void runsOfTasksBecomeBatchRowsThatUnpackToTheSameRowsInOrder() {
    List<OutboxRow> tasks = tasks(120);

    List<OutboxRow> packed = OutboxBatches.pack(tasks, 50);

    assertThat(packed).hasSize(3);
    assertThat(packed).allMatch(r -> r.kind().equals("BATCH"));
    assertThat(packed.get(0).taskId()).isEqualTo(tasks.get(0).taskId());
    assertThat(packed.get(2).routingKey()).isEqualTo(tasks.get(100).routingKey());
    assertThat(packed.get(1).createdAt()).isEqualTo(550);
    assertThat(packed).allMatch(r -> r.options() == null);
    List<OutboxRow> unpacked = new ArrayList<>();
    for (OutboxRow batch : packed) {
      unpacked.addAll(OutboxBatches.unpack(batch.toBuilder().id(42).build()));
    }
    assertThat(unpacked).isEqualTo(tasks.stream().map(t -> t.toBuilder().id(42).build()).toList());
  }

  @Test
  void oneTaskOrBatchingOffLeavesTheRowsAsTheyAre() {
    assertThat(OutboxBatches.pack(tasks(1), 50)).isEqualTo(tasks(1));
    assertThat(OutboxBatches.pack(tasks(7), 1)).isEqualTo(tasks(7));
    // 51 with a cap of 50: the last run of one stays a plain TASK row
    List<OutboxRow> packed = OutboxBatches.pack(tasks(51), 50);
    assertThat(packed.get(1)).isEqualTo(tasks(51).get(50));
  }

  @Test
  void aRowNeverGrowsPastTheByteBound() {
    String big = "\"" + "x".repeat(900_000) + "\"";
    List<OutboxRow> tasks = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      tasks.add(task(i, big));
    }

    List<OutboxRow> packed = OutboxBatches.pack(tasks, 1_000);

    assertThat(packed).hasSize(3); // 4 + 4 + 2 tasks of ~0.9 MB under 4 MiB
    assertThat(packed).allMatch(r -> r.payload().length() <= OutboxBatches.MAX_BYTES);
  }

  @Test
  void onlyTaskRowsAreBatched() {
    OutboxRow cancel = task(1, null).toBuilder().kind(OutboxKind.CANCEL).build();
    assertThatThrownBy(() -> OutboxBatches.pack(List.of(task(0, "1"), cancel), 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only TASK rows");
  }

  @Test
  void aForgedBatchPayloadIsRefusedNamingTheField() {
    OutboxRow batch = OutboxBatches.pack(tasks(3), 10).get(0);
    refused(batch.toBuilder().payload("not json").build(), "payload", "not JSON");
    refused(batch.toBuilder().payload("{}").build(), "payload", "JSON array of 1 to 1000");
    refused(batch.toBuilder().payload("[]").build(), "payload", "JSON array of 1 to 1000");
    refused(batch.toBuilder().payload("[1]").build(), "payload", "batch element 0 is not");
    String noHandlerKey = batch.payload().replaceFirst("\"due_at\":\\d+,", "");
    refused(
        batch.toBuilder().payload(noHandlerKey).build(), "due_at", "missing in batch element 0");
    String textDue = batch.payload().replaceFirst("\"due_at\":(\\d+)", "\"due_at\":\"$1\"");
    refused(batch.toBuilder().payload(textDue).build(), "due_at", "is not a long");
  }

  private static void refused(OutboxRow batch, String field, String text) {
    assertThatThrownBy(() -> OutboxBatches.unpack(batch))
        .isInstanceOf(InvalidTaskException.class)
        .satisfies(e -> assertThat(((InvalidTaskException) e).field()).isEqualTo(field))
        .hasMessageContaining(text);
  }
}
