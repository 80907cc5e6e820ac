package io.tasklane.testkit.internal;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * One combined broker+controller KRaft node of a multi-node cluster, in its own JVM, on loopback.
 * Its server.properties leave every topic default at Kafka's own (replication factor 1, min ISR 1),
 * so that what replicates a topic is the app that creates it. Used by one thread at a time.
 */
public final class ClusterNode {
  private final int id;
  private final int port;
  private final int controllerPort;
  private final Path dir;
  private Process process; // null while down

  public ClusterNode(int id, int port, int controllerPort, Path dir) {
    this.id = id;
    this.port = port;
    this.controllerPort = controllerPort;
    this.dir = dir;
  }

  public int id() {
    return id;
  }

  public int port() {
    return port;
  }

  public int controllerPort() {
    return controllerPort;
  }

  public Path log() {
    return dir.resolve("kafka.log");
  }

  /** True while its JVM runs. */
  public boolean alive() {
    return process != null && process.isAlive();
  }

  /**
   * Writes its server.properties and spawns the JVM (formatting the log dir with {@code clusterId}
   * on the first start); does not wait for readiness. {@code voters} is the quorum's {@code
   * controller.quorum.voters}.
   */
  public void start(String clusterId, String voters, String heap) throws IOException {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Path props = dir.resolve("server.properties");
    writeProperties(props, data, voters);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-Xms64m",
            "-Xmx" + heap,
            "-XX:+UseSerialGC",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.awt.headless=true",
            "-Dkafka.logs.dir=" + dir,
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            "-cp",
            BrokerClasspath.get(),
            BrokerMain.class.getName(),
            "--parent-pid",
            Long.toString(ProcessHandle.current().pid())));
    if (!Files.exists(data.resolve("meta.properties"))) {
      command.addAll(List.of("--format", clusterId));
    }
    command.add(props.toString());
    process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    ShutdownReaper.register(process.toHandle());
  }

  private void writeProperties(Path file, Path data, String voters) throws IOException {
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", Integer.toString(id));
    p.setProperty("controller.quorum.voters", voters);
    p.setProperty(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.setProperty("log.dirs", data.toString());
    p.setProperty("auto.create.topics.enable", "false");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    p.setProperty("group.min.session.timeout.ms", "1000");
    // fewer partitions of the internal topics: a faster start on 2 cores (replication untouched)
    p.setProperty("offsets.topic.num.partitions", "6");
    p.setProperty("transaction.state.log.num.partitions", "6");
    p.setProperty("num.network.threads", "2");
    p.setProperty("num.io.threads", "2");
    p.setProperty("log.retention.hours", "24");
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(out, "written by tasklane testkit (cluster node " + id + ")");
    }
  }

  /** SIGKILL, as a crash; waits until the JVM is gone. */
  public void kill9() {
    if (process != null) {
      Processes.kill9(process.toHandle());
      ShutdownReaper.unregister(process.toHandle());
      process = null;
    }
  }

  /** SIGTERM (a controlled shutdown), SIGKILL after {@code grace}; waits until it is gone. */
  public void stop(Duration grace) {
    if (process != null) {
      Processes.stop(process.toHandle(), grace);
      ShutdownReaper.unregister(process.toHandle());
      process = null;
    }
  }

  /** The tail of its log, for failure messages. */
  public String tail(int lines) {
    return Processes.tail(log(), lines);
  }
}
