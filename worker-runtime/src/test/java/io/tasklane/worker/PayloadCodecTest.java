package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One {@link PayloadCodec} serves both sides: the application's codec bean (here snake_case names)
 * that encoded a payload at enqueue also binds it for the handler, instead of the worker silently
 * using its own default mapper and binding the fields as missing.
 */
@TasklaneStack
class PayloadCodecTest {
  static final ObjectMapper SNAKE_CASE =
      WireCodec.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  private static WorkerFixture fx;
  private static Bound bound;

  record InvoiceRef(long invoiceId, String customerName) {}

  @Singleton
  @Requires(property = "test.suite", value = "codec")
  static class Bound {
    final Map<String, InvoiceRef> byTask = new ConcurrentHashMap<>();
  }

  @Factory
  @Requires(property = "test.suite", value = "codec")
  static class Codec {
    @Singleton
    PayloadCodec payloadCodec() {
      return PayloadCodec.jackson(SNAKE_CASE);
    }
  }

  @Singleton
  @Requires(property = "test.suite", value = "codec")
  static class Handlers {
    private final Bound bound;

    Handlers(Bound bound) {
      this.bound = bound;
    }

    @TaskHandler("invoice.send")
    public void send(InvoiceRef ref, TaskContext ctx) {
      bound.byTask.put(ctx.taskId(), ref);
    }
  }

  @BeforeAll
  static void start(LocalStack stack) {
    fx = new WorkerFixture(stack, "codec", List.of("invoice.send"));
    bound = fx.start(Map.of("tasklane.worker.idempotency.enabled", false)).getBean(Bound.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @Test
  void theApplicationsCodecBindsWhatItEncoded() throws Exception {
    // what the outbox writes when the application's codec is snake_case
    String json = PayloadCodec.jackson(SNAKE_CASE).encode(new InvoiceRef(42, "Zoë"));
    assertThat(json).contains("\"invoice_id\":42").doesNotContain("invoiceId");
    JsonNode payload = WireCodec.mapper().readTree(json);

    Dispatch d = Dispatches.of("invoice.send", payload, 30_000);
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(bound.byTask.get(d.id())).isEqualTo(new InvoiceRef(42, "Zoë"));
  }
}
