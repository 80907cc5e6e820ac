package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Topics;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import java.io.File;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Starts {@code SchedulerApp} as a child JVM on the test stack (4 partitions, viewer token). */
final class SchedulerProcess {
  private SchedulerProcess() {}

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * Starts a scheduler named {@code name} with its state under {@code dir}; {@code settings} are
   * extra {@code tasklane.scheduler.*} keys (without the prefix). The caller closes it.
   */
  static JavaProcess start(
      LocalStack stack,
      Topics topics,
      Path dir,
      String name,
      int port,
      Map<String, String> settings)
      throws Exception {
    String cp =
        Path.of("target", "classes").toAbsolutePath()
            + File.pathSeparator
            + Files.readString(Path.of("target", "app.classpath")).trim();
    JavaProcess.Builder b =
        JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
            .classpath(cp)
            .name("scheduler-" + name)
            .jvmArg("-Xmx256m")
            .sysProp("micronaut.server.port", String.valueOf(port))
            .sysProp("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers())
            .sysProp("tasklane.scheduler.namespace", topics.namespace())
            .sysProp("tasklane.scheduler.partitions", "4")
            .sysProp("tasklane.scheduler.state-dir", dir.resolve(name).toString())
            .sysProp("tasklane.scheduler.topic-refresh-interval", "1s")
            .sysProp("tasklane.scheduler.api.tokens", "viewer-bob:" + VIEWER + ":viewer")
            .sysProp("tasklane.scheduler.inter-instance-token", StackSupport.INTER_INSTANCE)
            .sysProp("tasklane.scheduler.kafka.session.timeout.ms", "6000")
            .sysProp("tasklane.scheduler.kafka.heartbeat.interval.ms", "1000");
    settings.forEach((k, v) -> b.sysProp("tasklane.scheduler." + k, v));
    return b.start();
  }

  /** Waits until the scheduler's /health says UP, failing fast if the process exits. */
  static void awaitUp(JavaProcess p, int port) {
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptionsInstanceOf(ConnectException.class)
        .failFast("the scheduler process exited", () -> !p.isAlive())
        .untilAsserted(
            () -> {
              assertThat(p.isAlive()).as(p.logTail(40)).isTrue();
              assertThat(StackSupport.get(port, "/health", null).body()).contains("\"UP\"");
            });
  }
}
