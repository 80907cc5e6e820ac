package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackConfig;
import io.tasklane.testkit.LocalStackException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft broker+controller (node 1) in a separate JVM. Used by one thread at a time (the one
 * starting or closing the stack).
 */
public final class KafkaBroker {

  private final StackLayout layout;
  private final int port;
  private final Process process;
  private final long logOffset;
  private final KafkaSecurity security; // null: PLAINTEXT

  private KafkaBroker(
      StackLayout layout, int port, Process process, long logOffset, KafkaSecurity security) {
    this.layout = layout;
    this.port = port;
    this.process = process;
    this.logOffset = logOffset;
    this.security = security;
  }

  /**
   * Writes server.properties and spawns the broker JVM; does not wait for readiness. With {@code
   * security} (nullable) the client listener is SASL_SSL and a fresh data dir is formatted with its
   * super user.
   */
  public static KafkaBroker launch(
      LocalStackConfig config,
      StackLayout layout,
      int port,
      int controllerPort,
      KafkaSecurity security)
      throws IOException {
    Files.createDirectories(layout.kafkaDataDir());
    KafkaProperties.write(layout, port, controllerPort, security);
    List<String> command = new ArrayList<>();
    if (config.detached()) {
      Detach.prefix().ifPresent(command::add);
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    command.add(java.toString());
    if (config.kafkaFastStart()) {
      command.add("-XX:TieredStopAtLevel=1");
    }
    command.addAll(
        List.of(
            "-Xms128m",
            "-Xmx" + config.kafkaHeap(),
            "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=20",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.awt.headless=true",
            "-Dkafka.logs.dir=" + layout.kafkaDir(),
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSS",
            "-cp",
            BrokerClasspath.get(),
            BrokerMain.class.getName()));
    if (!config.detached()) {
      command.addAll(List.of("--parent-pid", Long.toString(ProcessHandle.current().pid())));
    }
    if (!Files.exists(layout.kafkaDataDir().resolve("meta.properties"))) {
      command.addAll(List.of("--format", Uuid.randomUuid().toString()));
      if (security != null) {
        command.addAll(List.of("--scram-file", security.writeScramFile().toString()));
      }
    }
    command.add(layout.kafkaProperties().toString());
    long logOffset = Files.exists(layout.kafkaLog()) ? Files.size(layout.kafkaLog()) : 0;
    Process process =
        new ProcessBuilder(command)
            .directory(layout.kafkaDir().toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(layout.kafkaLog().toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    if (!config.detached()) {
      ShutdownReaper.register(process.toHandle());
    }
    Files.writeString(layout.kafkaPidFile(), process.pid() + "\n");
    return new KafkaBroker(layout, port, process, logOffset, security);
  }

  /**
   * Waits until {@code Admin.describeCluster()} answers and a probe topic can be created and
   * deleted; fails early if the broker JVM exits.
   */
  public void awaitReady(long deadlineNanos) {
    Map<String, Object> props = new HashMap<>(clientProperties());
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
    props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
    props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 100);
    Exception last = null;
    try (Admin admin = Admin.create(props)) {
      while (true) {
        if (!process.isAlive()) {
          throw failure(
              "broker JVM exited with code " + process.exitValue() + " during startup", null);
        }
        try {
          if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
            String probe = "tasklane-probe-" + UUID.randomUUID();
            admin
                .createTopics(List.of(new NewTopic(probe, 1, (short) 1)))
                .all()
                .get(10, TimeUnit.SECONDS);
            admin.deleteTopics(List.of(probe)).all().get(10, TimeUnit.SECONDS);
            return;
          }
        } catch (java.util.concurrent.ExecutionException
            | java.util.concurrent.TimeoutException e) {
          last = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw failure("interrupted while waiting for the broker", e);
        }
        if (System.nanoTime() > deadlineNanos) {
          throw failure(
              "broker did not become ready (describeCluster + probe topic) in time", last);
        }
        Processes.pause(100);
      }
    }
  }

  /** A failure of this broker, with the tail of its log; the caller stops the stack. */
  public LocalStackException failure(String what, Throwable cause) {
    return new LocalStackException(
        "Kafka failed to start: "
            + what
            + " (127.0.0.1:"
            + port
            + ", dir "
            + layout.kafkaDir()
            + ")\n"
            + Processes.tail(layout.kafkaLog(), logOffset, 30),
        cause);
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /** The broker's secrets, or null for a PLAINTEXT broker. */
  public KafkaSecurity security() {
    return security;
  }

  /** Bootstrap servers plus, on a SASL_SSL broker, the super user's client settings. */
  public Map<String, Object> clientProperties() {
    Map<String, Object> p = new HashMap<>();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    if (security != null) {
      p.putAll(security.adminProperties());
    }
    return p;
  }

  public long pid() {
    return process.pid();
  }

  /** Stops the broker JVM (SIGTERM, then SIGKILL after {@code grace}); blocks until it is gone. */
  public void stop(Duration grace) {
    Processes.stop(process.toHandle(), grace);
    ShutdownReaper.unregister(process.toHandle());
    try {
      Files.deleteIfExists(layout.kafkaPidFile());
    } catch (IOException e) {
      // best effort: a stale pid file is checked against /proc before it is trusted
    }
  }
}
