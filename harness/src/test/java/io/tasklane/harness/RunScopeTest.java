package io.tasklane.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunScopeTest {

  @Test
  void closesLastFirstReportsFailuresAndKeepsStopping() {
    List<String> closed = new ArrayList<>();
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    RunScope scope = new RunScope("test", out, Duration.ofSeconds(1));
    scope.track(() -> closed.add("stack"));
    scope.track(
        new AutoCloseable() {
          @Override
          public void close() {
            throw new IllegalStateException("boom");
          }

          @Override
          public String toString() {
            return "broken";
          }
        });
    AutoCloseable app = scope.track(() -> closed.add("app"));

    scope.close();
    scope.close();

    assertThat(app).isNotNull();
    assertThat(closed).containsExactly("app", "stack");
    assertThat(buffer.toString(StandardCharsets.UTF_8))
        .contains("while stopping broken: java.lang.IllegalStateException: boom");
  }
}
