package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DuplicateHandlerNameTest {

  @TaskHandler("twice")
  @Requires(property = "test.suite", value = "duplicate")
  static class First implements Handler<String> {
    @Override
    public void handle(String payload, TaskContext context) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "duplicate")
  static class Second {
    @TaskHandler("twice")
    public void handle(String payload) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "bad-name")
  static class BadName {
    @TaskHandler("Order Cancel!")
    public void cancel(String payload) {}
  }

  @Test
  void aBadHandlerNameFailsStartupNamingTheBeanClassAndMethod() {
    assertThatThrownBy(
            () ->
                ApplicationContext.run(
                        Map.of(
                            "test.suite", "bad-name",
                            "tasklane.worker.bootstrap-servers", "127.0.0.1:1"))
                    .close())
        .hasStackTraceContaining(
            "@TaskHandler(\"Order Cancel!\") on bean " + BadName.class.getName() + "#cancel")
        .hasStackTraceContaining("[a-z0-9]");
  }

  @Test
  void duplicateHandlerNamesFailStartupNamingBothBeans() {
    assertThatThrownBy(
            () ->
                ApplicationContext.run(
                        Map.of(
                            "test.suite", "duplicate",
                            "tasklane.worker.bootstrap-servers", "127.0.0.1:1"))
                    .close())
        .hasStackTraceContaining("duplicate task handler name 'twice'")
        .hasStackTraceContaining(First.class.getName())
        .hasStackTraceContaining(Second.class.getName() + "#handle");
  }
}
