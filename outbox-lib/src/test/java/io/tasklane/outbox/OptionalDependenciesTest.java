package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TaskIds;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Plain-JDBC users need neither Micronaut, nor JPA/Hibernate, nor OpenTelemetry. */
@TasklaneStack
class OptionalDependenciesTest {
  static final List<String> NEEDED =
      List.of(
          "target/classes",
          "target/test-classes",
          "tasklane-core",
          "jackson-",
          "slf4j-",
          "mariadb-java-client");

  @Test
  void plainJdbcEnqueueRunsWithoutTheOptionalDependencies(LocalStack stack) throws Exception {
    TestDb db = TestDb.create(stack, "outbox_plain_cp");
    String classpath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> NEEDED.stream().anyMatch(entry::contains))
            .filter(entry -> !entry.contains("testkit"))
            .collect(Collectors.joining(File.pathSeparator));
    assertThat(classpath).doesNotContain("micronaut", "hibernate", "opentelemetry", "persistence");
    Path log = Path.of("target", "plain-jdbc-main.log");
    try (JavaProcess process =
        JavaProcess.builder(PlainJdbcMain.class.getName())
            .classpath(classpath)
            .arg(db.url())
            .arg(stack.username())
            .arg(stack.password())
            .name("plain-jdbc-main")
            .logFile(log)
            .start()) {
      int exit = process.waitFor(Duration.ofSeconds(60));
      assertThat(exit).as(process.logTail(40)).isZero();
      assertThat(process.logTail(40))
          .contains("absent: io.micronaut.core.annotation.Internal")
          .contains("enqueued " + TaskIds.forKey("plain.jdbc", "plain"));
    }
    assertThat(db.rows())
        .singleElement()
        .satisfies(r -> assertThat(r).containsEntry("task_key", "plain"));
  }
}
