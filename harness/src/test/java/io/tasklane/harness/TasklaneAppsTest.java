package io.tasklane.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.testkit.JavaProcess;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TasklaneAppsTest {

  @Test
  void everySettingButJfrIsRequired() {
    assertThatThrownBy(() -> TasklaneApps.builder().home(Path.of(".")).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("TasklaneApps.runDir");
  }

  @Test
  void anAppOfAModuleThatWasNotBuiltSaysHowToBuildIt(@TempDir Path home) {
    TasklaneApps apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(home.resolve("run"))
            .database("jdbc:mariadb://127.0.0.1:1/x", "u", "p")
            .bootstrap("127.0.0.1:2")
            .namespace("ns")
            .build();

    assertThat(apps.logs()).isEqualTo(home.resolve("run/logs"));
    assertThat(apps.jfrFile("relay")).isEqualTo(home.resolve("run/relay.jfr"));
    assertThatThrownBy(() -> apps.relay("relay"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("cdc-relay/target/app.classpath is missing: build first");
  }

  @Test
  void everyAppGetsTheJvmArgs(@TempDir Path home) throws Exception {
    Files.createDirectories(home.resolve("mod/target/classes"));
    Files.writeString(home.resolve("mod/target/app.classpath"), "");
    TasklaneApps apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(home.resolve("run"))
            .database("jdbc:mariadb://127.0.0.1:1/x", "u", "p")
            .bootstrap("127.0.0.1:2")
            .namespace("ns")
            .jvmArgs(List.of("-XX:TieredStopAtLevel=1", "-XX:+PrintCommandLineFlags"))
            .build();

    // no such main class: the JVM prints its flags and exits
    try (JavaProcess p = apps.app("probe", "io.tasklane.NoSuchMain", "mod").start()) {
      p.waitFor(Duration.ofSeconds(30));
      assertThat(Files.readString(p.logFile())).contains("-XX:TieredStopAtLevel=1");
    }
  }

  @Test
  void schedulerSettingsAreKeptByNameAndABadNameIsRefusedNamingIt(@TempDir Path home) {
    TasklaneApps.Builder b =
        TasklaneApps.builder()
            .home(home)
            .runDir(home.resolve("run"))
            .database("jdbc:mariadb://127.0.0.1:1/x", "u", "p")
            .bootstrap("127.0.0.1:2")
            .namespace("ns");
    assertThat(b.build().schedulerSettings()).isEmpty();
    assertThat(
            b.schedulerSettings(java.util.Map.of("kafka.num.stream.threads", "2"))
                .build()
                .schedulerSettings())
        .containsExactly(java.util.Map.entry("kafka.num.stream.threads", "2"));
    assertThatThrownBy(
            () -> b.schedulerSettings(java.util.Map.of("tasklane.scheduler.commit-interval", "1s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'tasklane.scheduler.commit-interval' is not a setting name");
    assertThatThrownBy(() -> b.schedulerSettings(java.util.Map.of("Commit Interval", "1s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Commit Interval'");
  }
}
