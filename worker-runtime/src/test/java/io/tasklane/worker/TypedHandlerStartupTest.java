package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.TaskType;
import jakarta.inject.Singleton;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A typed handler that clashes with another handler or its own type is refused at start-up. */
class TypedHandlerStartupTest {
  record OrderRef(long orderId) {}

  static final TaskType<OrderRef> ORDER_CANCEL = TaskType.of("order.cancel", OrderRef.class);

  @Singleton
  @Requires(property = "test.suite", value = "typed-clash")
  static class TypedCancel implements TypedHandler<OrderRef> {
    @Override
    public TaskType<OrderRef> type() {
      return ORDER_CANCEL;
    }

    @Override
    public void handle(OrderRef payload, TaskContext context) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "typed-clash")
  static class StringCancel {
    @TaskHandler("order.cancel")
    public void cancel(OrderRef payload) {}
  }

  /** Declares String payloads but returns a type of OrderRef payloads (through a raw type). */
  @Singleton
  @Requires(property = "test.suite", value = "typed-mismatch")
  static class WrongPayload implements TypedHandler<String> {
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public TaskType<String> type() {
      return (TaskType) ORDER_CANCEL;
    }

    @Override
    public void handle(String payload, TaskContext context) {}
  }

  private static void run(String suite) {
    ApplicationContext.run(
            Map.of("test.suite", suite, "tasklane.worker.bootstrap-servers", "127.0.0.1:1"))
        .close();
  }

  @Test
  void aTypedHandlerWithTheNameOfAnotherHandlerFailsStartupNamingBoth() {
    assertThatThrownBy(() -> run("typed-clash"))
        .hasStackTraceContaining("duplicate task handler name 'order.cancel'")
        .hasStackTraceContaining(TypedCancel.class.getName())
        .hasStackTraceContaining(StringCancel.class.getName() + "#cancel");
  }

  @Test
  void aTypedHandlerWhosePayloadIsNotItsTypesFailsStartupNamingBothClasses() {
    assertThatThrownBy(() -> run("typed-mismatch"))
        .hasStackTraceContaining(WrongPayload.class.getName())
        .hasStackTraceContaining("handles java.lang.String")
        .hasStackTraceContaining("task type 'order.cancel' carries " + OrderRef.class.getName());
  }
}
