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
import java.util.Optional;
import java.util.Properties;

/**
 * One combined broker+controller KRaft node of a multi-node cluster, in its own JVM, on loopback.
 * Its server.properties leave every topic default at Kafka's own (replication factor 1, min ISR 1),
 * so that what replicates a topic is the app that creates it. Its pid is kept in {@code kafka.pid}
 * of its dir, so that another JVM can find it again ({@link #attach}); its {@code
 * server.properties} path on the command line tells it from other processes. A detached node
 * ({@code bin/stack up --brokers 3}) runs in its own session and outlives the JVM that started it.
 * Used by one thread at a time.
 */
public final class ClusterNode {
  private final int id;
  private final int port;
  private final int controllerPort;
  private final Path dir;
  private final boolean detached;
  private final boolean fastStart;
  private ProcessHandle process; // null while down

  public ClusterNode(int id, int port, int controllerPort, Path dir) {
    this(id, port, controllerPort, dir, false, true);
  }

  /**
   * A node that, when {@code detached}, outlives this JVM (own session, no parent watch, no
   * kill-on-exit hook); {@code fastStart} runs its JVM with C1 only.
   */
  public ClusterNode(
      int id, int port, int controllerPort, Path dir, boolean detached, boolean fastStart) {
    this.id = id;
    this.port = port;
    this.controllerPort = controllerPort;
    this.dir = dir;
    this.detached = detached;
    this.fastStart = fastStart;
  }

  /**
   * The node of another JVM (or of an earlier start) in {@code dir}: its process is the one in
   * {@code kafka.pid} if that still runs with this dir's server.properties.
   */
  public static ClusterNode attach(
      int id, int port, int controllerPort, Path dir, boolean detached, boolean fastStart) {
    ClusterNode n = new ClusterNode(id, port, controllerPort, dir, detached, fastStart);
    n.process = n.running().orElse(null);
    return n;
  }

  /** The running process of this dir's node (by pid file, checked against /proc), if any. */
  public Optional<ProcessHandle> running() {
    return Processes.readPidFile(pidFile())
        .filter(pid -> Processes.isOurs(pid, marker()))
        .flatMap(ProcessHandle::of);
  }

  /** The token on the node's command line that identifies it: its server.properties path. */
  public String marker() {
    return dir.resolve("server.properties").toString();
  }

  /** The pid of the running JVM, or -1 while down. */
  public long pid() {
    return alive() ? process.pid() : -1;
  }

  private Path pidFile() {
    return dir.resolve("kafka.pid");
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
    return process != null && process.isAlive() && Processes.isOurs(process.pid(), marker());
  }

  /**
   * Writes its server.properties and spawns the JVM (formatting the log dir with {@code clusterId}
   * on the first start); does not wait for readiness. {@code voters} is the quorum's {@code
   * controller.quorum.voters}.
   */
  public void start(String clusterId, String voters, String heap) throws IOException {
    start(clusterId, voters, heap, java.util.Map.of());
  }

  /**
   * As {@link #start(String, String, String)}, with {@code settings} (broker settings such as
   * {@code broker.session.timeout.ms}) written over the node's own.
   */
  public void start(
      String clusterId, String voters, String heap, java.util.Map<String, String> settings)
      throws IOException {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Path props = dir.resolve("server.properties");
    writeProperties(props, data, voters, settings);
    List<String> command = new ArrayList<>();
    if (detached) {
      Detach.prefix().ifPresent(command::add);
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (fastStart) {
      command.add("-XX:TieredStopAtLevel=1");
    }
    command.addAll(
        List.of(
            "-Xms64m",
            "-Xmx" + heap,
            "-XX:+UseSerialGC",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.awt.headless=true",
            "-Dkafka.logs.dir=" + dir,
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            "-cp",
            BrokerClasspath.get(),
            BrokerMain.class.getName()));
    if (!detached) {
      command.addAll(List.of("--parent-pid", Long.toString(ProcessHandle.current().pid())));
    }
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
            .start()
            .toHandle();
    if (!detached) {
      ShutdownReaper.register(process);
    }
    Files.writeString(pidFile(), process.pid() + "\n");
  }

  private void writeProperties(
      Path file, Path data, String voters, java.util.Map<String, String> settings)
      throws IOException {
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
    settings.forEach(p::setProperty);
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(out, "written by tasklane testkit (cluster node " + id + ")");
    }
  }

  /** SIGKILL, as a crash; waits until the JVM is gone. */
  public void kill9() {
    if (process == null) {
      process = running().orElse(null);
    }
    if (process != null) {
      Processes.kill9(process);
      ShutdownReaper.unregister(process);
      process = null;
    }
  }

  /** SIGTERM (a controlled shutdown), SIGKILL after {@code grace}; waits until it is gone. */
  public void stop(Duration grace) {
    if (process == null) {
      process = running().orElse(null);
    }
    if (process != null) {
      Processes.stop(process, grace);
      ShutdownReaper.unregister(process);
      process = null;
    }
  }

  /** The tail of its log, for failure messages. */
  public String tail(int lines) {
    return Processes.tail(log(), lines);
  }
}
