package io.tasklane.core.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.WireCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutboxRowsTest {
  private static final long NOW = 1_700_000_000_000L;
  private final String id = TaskIds.keyless(Clock.systemUTC());
  private final String dep = TaskIds.keyless(Clock.systemUTC());

  private TaskEnvelope envelope(String orderingKey, RetryPolicy backoff) {
    return TaskEnvelope.builder()
        .id(id)
        .handler("order.ship")
        .key("k-1")
        .orderingKey(orderingKey)
        .payload(WireCodec.readTree("{\"a\":1}"))
        .dueAt(NOW + 5000)
        .maxAttempts(5)
        .timeoutMs(60_000)
        .backoff(backoff)
        .dependsOn(List.of(dep))
        .headers(Map.of("traceparent", "00-ab"))
        .createdAt(NOW)
        .options(TaskOptions.builder().waitTimeoutMs(90_000L).build())
        .build();
  }

  @Test
  void aTaskSurvivesTheRoundTripThroughItsRow() {
    TaskEnvelope task = envelope("order-9", RetryPolicy.fixed(Duration.ofSeconds(30)));

    OutboxRow row = OutboxRows.task(task, "{\"a\":1}").toBuilder().id(7).build();

    assertThat(row.kind()).isEqualTo("TASK");
    assertThat(row.routingKey()).isEqualTo("order-9");
    assertThat(row.options()).isEqualTo("{\"v\":1,\"waitTimeoutMs\":90000}");
    assertThat(OutboxRows.toTask(row, "tasklane_outbox"))
        .isEqualTo(task.withSource(new Source("tasklane_outbox", 7)));
  }

  @Test
  void anOrderedTaskWithoutOptionsKeepsItsOrderingKey() {
    TaskEnvelope task = envelope("order-9", null).toBuilder().options(null).build();

    OutboxRow row = OutboxRows.task(task, "{\"a\":1}");

    assertThat(row.options()).isNull();
    assertThat(OutboxRows.toTask(row, "t").orderingKey()).isEqualTo("order-9");
  }

  @Test
  void theRoutingKeyIsTheTaskIdWithoutOrderingKey() {
    TaskEnvelope task = envelope(null, RetryPolicy.sidekiq());

    OutboxRow row = OutboxRows.task(task, "{\"a\":1}");

    assertThat(row.routingKey()).isEqualTo(id);
    assertThat(OutboxRows.toTask(row, "t").orderingKey()).isNull();
  }

  @Test
  void aConcurrencyKeyIsTheRoutingKeyAndStaysAnOptionNotAnOrderingKey() {
    TaskEnvelope task =
        envelope(null, RetryPolicy.sidekiq()).toBuilder()
            .options(TaskOptions.builder().concurrencyKey("tenant-7").build())
            .build();

    OutboxRow row = OutboxRows.task(task, "{\"a\":1}").toBuilder().id(8).build();

    assertThat(row.routingKey()).isEqualTo("tenant-7");
    TaskEnvelope read = OutboxRows.toTask(row, "t");
    assertThat(read.orderingKey()).isNull();
    assertThat(read.options().concurrencyKey()).isEqualTo("tenant-7");
    assertThat(read.laneKey()).isEqualTo("tenant-7");
    assertThat(read.routingKey()).isEqualTo("tenant-7");
  }

  @Test
  void emptyListsAndMapsAreStoredAsNullAndReadAsEmpty() {
    TaskEnvelope task =
        TaskEnvelope.builder()
            .id(id)
            .handler("a.b")
            .dueAt(NOW)
            .maxAttempts(3)
            .timeoutMs(1000)
            .createdAt(NOW)
            .build();

    OutboxRow row = OutboxRows.task(task, null);

    assertThat(row.dependsOn()).isNull();
    assertThat(row.headers()).isNull();
    assertThat(row.options()).isNull();
    assertThat(row.payload()).isNull();
    TaskEnvelope back = OutboxRows.toTask(row.toBuilder().backoff(null).build(), "t");
    assertThat(back.dependsOn()).isEmpty();
    assertThat(back.headers()).isEmpty();
    assertThat(back.payload().isNull()).isTrue();
    assertThat(back.backoff()).isEqualTo(RetryPolicy.sidekiq());
    assertThat(back.options()).isEqualTo(TaskOptions.none());
  }

  @Test
  void optionsOfANewerWriterAreReadWithoutWhatThisReaderDoesNotKnow() {
    OutboxRow row =
        OutboxRows.task(envelope(null, null), "{\"a\":1}").toBuilder()
            .options("{\"v\":1,\"waitTimeoutMs\":90000,\"priority\":7}")
            .build();
    assertThat(OutboxRows.toTask(row, "t").options().waitTimeoutMs()).isEqualTo(90_000L);
  }

  @Test
  void aCancelSurvivesTheRoundTripThroughItsRow() {
    CancelCommand cancel = CancelCommand.of(id, "paid", NOW).withTask("order.cancel", "order-42");

    OutboxRow row = OutboxRows.cancel(cancel);

    assertThat(row)
        .isEqualTo(
            OutboxRow.builder()
                .taskId(id)
                .routingKey(id)
                .kind(OutboxKind.CANCEL)
                .handler("order.cancel")
                .taskKey("order-42")
                .payload("\"paid\"")
                .createdAt(NOW)
                .build());
    assertThat(OutboxRows.toCancel(row)).isEqualTo(cancel);
    assertThat(OutboxRows.toCancel(OutboxRows.cancel(CancelCommand.of(id, null, NOW))))
        .isEqualTo(CancelCommand.of(id, null, NOW).withTask(null, null));
  }

  @Test
  void readingNamesTheColumnThatDoesNotParse() {
    OutboxRow row = OutboxRows.task(envelope(null, null), "{\"a\":1}");

    assertThatThrownBy(() -> OutboxRows.toTask(row.toBuilder().payload("{broken").build(), "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("payload: ");
    assertThatThrownBy(() -> OutboxRows.toTask(row.toBuilder().backoff("{}").build(), "t"))
        .hasMessageStartingWith("backoff: not a valid RetryPolicy");
    assertThatThrownBy(() -> OutboxRows.toTask(row.toBuilder().dependsOn("{}").build(), "t"))
        .hasMessageStartingWith("depends_on: not valid JSON");
    assertThatThrownBy(() -> OutboxRows.toTask(row.toBuilder().headers("[1]").build(), "t"))
        .hasMessageStartingWith("headers: not valid JSON");
    for (String bad : new String[] {"{broken", "[]", "null", "7", "{\"waitTimeoutMs\":\"soon\"}"}) {
      assertThatThrownBy(() -> OutboxRows.toTask(row.toBuilder().options(bad).build(), "t"))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("options: ");
    }
    assertThatThrownBy(() -> OutboxRows.toTask(row.toBuilder().handler(null).build(), "t"))
        .hasMessage("handler: is null (a TASK row needs a handler)");
    assertThatThrownBy(() -> OutboxRows.toCancel(row.toBuilder().taskId("bad").build()))
        .isInstanceOf(InvalidTaskException.class);
  }
}
