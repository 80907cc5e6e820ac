package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without servers: usage, status and down of an empty dir. */
class StackMainTest {

  @TempDir Path dir;

  @Test
  void statusOfAnEmptyDirSaysNoStack() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = StackMain.run(new String[] {"status", "--dir", dir.toString()}, print(out));
    assertThat(code).isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("no stack in " + dir);
  }

  @Test
  void downOfAnEmptyDirSucceeds() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = StackMain.run(new String[] {"down", "--dir", dir.toString()}, print(out));
    assertThat(code).isZero();
  }

  @Test
  void unknownCommandPrintsUsage() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(StackMain.run(new String[] {"sideways"}, print(out))).isEqualTo(2);
    assertThat(StackMain.run(new String[] {}, print(out))).isEqualTo(2);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: StackMain up|down|status");
  }

  private static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }

  @Test
  void upPrintsTheAppConfigurationForThisStack() {
    String config =
        StackMain.appConfig(
            "jdbc:mariadb://127.0.0.1:41234/tasklane", "tasklane", "pw", "127.0.0.1:41235");

    assertThat(config)
        .contains("tasklane.relay.jdbc-url=jdbc:mariadb://127.0.0.1:41234/tasklane\n")
        .contains("tasklane.relay.bootstrap-servers=127.0.0.1:41235\n")
        .contains("tasklane.scheduler.bootstrap-servers=127.0.0.1:41235\n")
        .contains("datasources.default.url: jdbc:mariadb://127.0.0.1:41234/tasklane\n")
        .contains("tasklane.worker.bootstrap-servers: 127.0.0.1:41235\n")
        .contains("mariadb -h 127.0.0.1 -P 41234 -u tasklane -ppw tasklane < schema.sql\n")
        .contains("export TASKLANE_RELAY_JDBC_URL=jdbc:mariadb://127.0.0.1:41234/tasklane\n")
        .contains("export DATASOURCES_DEFAULT_PASSWORD=pw\n")
        .contains("export SPRING_DATASOURCE_URL=jdbc:mariadb://127.0.0.1:41234/tasklane\n")
        .contains("export SPRING_DATASOURCE_PASSWORD=pw\n");
  }
}
