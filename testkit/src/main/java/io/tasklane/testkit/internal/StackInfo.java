package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Properties;

/**
 * What a running stack is: the content of {@code stack.properties}. A value; any thread.
 *
 * @param baseDir the stack's base dir
 * @param mariaDbPort MariaDB TCP port on 127.0.0.1
 * @param kafkaPort broker PLAINTEXT port on 127.0.0.1
 * @param kafkaControllerPort KRaft controller port on 127.0.0.1
 * @param mariaDbPid pid of mariadbd
 * @param kafkaPid pid of the broker JVM
 * @param username the app user
 * @param password the app user's password
 * @param detached true if started by {@code StackMain up} (outlives its JVM)
 * @param kafkaBrokers 1, or 3 for a stack whose Kafka is the cluster in {@link
 *     StackLayout#kafkaClusterDir()} (then the Kafka port, controller port and pid are node 1's)
 * @param clusterBootstrap the bootstrap servers of every node of the cluster; null with 1 broker
 */
public record StackInfo(
    Path baseDir,
    int mariaDbPort,
    int kafkaPort,
    int kafkaControllerPort,
    long mariaDbPid,
    long kafkaPid,
    String username,
    String password,
    boolean detached,
    int kafkaBrokers,
    String clusterBootstrap) {

  /** A stack with one broker. */
  public StackInfo(
      Path baseDir,
      int mariaDbPort,
      int kafkaPort,
      int kafkaControllerPort,
      long mariaDbPid,
      long kafkaPid,
      String username,
      String password,
      boolean detached) {
    this(
        baseDir,
        mariaDbPort,
        kafkaPort,
        kafkaControllerPort,
        mariaDbPid,
        kafkaPid,
        username,
        password,
        detached,
        1,
        null);
  }

  /** The database every stack has. */
  public static final String DEFAULT_DATABASE = "tasklane";

  public StackLayout layout() {
    return new StackLayout(baseDir);
  }

  public String jdbcUrl(String database) {
    return "jdbc:mariadb://127.0.0.1:" + mariaDbPort + "/" + database;
  }

  public String rootJdbcUrl() {
    return MariaDbServer.rootJdbcUrl(mariaDbPort);
  }

  public String bootstrapServers() {
    return kafkaBrokers > 1 ? clusterBootstrap : "127.0.0.1:" + kafkaPort;
  }

  /** True if this stack's Kafka is a cluster (brokers(3)). */
  public boolean isCluster() {
    return kafkaBrokers > 1;
  }

  /**
   * True if both recorded processes are alive and still ours (checked via /proc cmdline); for a
   * cluster: MariaDB and at least one node (tests kill and restart single nodes).
   */
  public boolean isRunning() {
    if (!Processes.isOurs(mariaDbPid, layout().mariaDbMarker())) {
      return false;
    }
    if (isCluster()) {
      return ClusterProcesses.anyAlive(layout().kafkaClusterDir());
    }
    return Processes.isOurs(kafkaPid, layout().kafkaProperties().toString());
  }

  /** Writes the file atomically (temp file + rename). */
  public void write(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("jdbcUrl", jdbcUrl(DEFAULT_DATABASE));
    p.setProperty("rootJdbcUrl", rootJdbcUrl());
    p.setProperty("username", username);
    p.setProperty("password", password);
    p.setProperty("bootstrapServers", bootstrapServers());
    p.setProperty("mariaDbPort", Integer.toString(mariaDbPort));
    p.setProperty("kafkaPort", Integer.toString(kafkaPort));
    p.setProperty("kafkaControllerPort", Integer.toString(kafkaControllerPort));
    p.setProperty("mariaDbPid", Long.toString(mariaDbPid));
    p.setProperty("kafkaPid", Long.toString(kafkaPid));
    p.setProperty("baseDir", baseDir.toString());
    p.setProperty("binlogDir", layout().binlogDir().toString());
    p.setProperty("detached", Boolean.toString(detached));
    p.setProperty("kafkaBrokers", Integer.toString(kafkaBrokers));
    if (isCluster()) {
      p.setProperty("kafkaClusterDir", layout().kafkaClusterDir().toString());
    }
    p.setProperty("startedAt", Instant.now().toString());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(out, "tasklane local stack; attach with TASKLANE_STACK=" + file);
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Reads the stack file of a stack started by {@code StackMain up} and checks that both servers
   * run.
   *
   * @throws LocalStackException if the file is missing or its servers are not running
   */
  public static StackInfo readRunning(Path stackProperties) {
    if (!Files.isRegularFile(stackProperties)) {
      throw new LocalStackException(
          "no stack file " + stackProperties + ": start one with bin/stack up");
    }
    StackInfo info = read(stackProperties);
    if (!info.isRunning()) {
      throw new LocalStackException(
          "the stack in "
              + stackProperties
              + " is not running (mariadbd pid "
              + info.mariaDbPid()
              + ", Kafka pid "
              + info.kafkaPid()
              + (info.isCluster() ? ", or no node of the cluster" : "")
              + "): start it with bin/stack up");
    }
    return info;
  }

  /** Reads a stack.properties file. */
  public static StackInfo read(Path file) {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
      return new StackInfo(
          Path.of(required(p, "baseDir", file)),
          Integer.parseInt(required(p, "mariaDbPort", file)),
          Integer.parseInt(required(p, "kafkaPort", file)),
          Integer.parseInt(required(p, "kafkaControllerPort", file)),
          Long.parseLong(required(p, "mariaDbPid", file)),
          Long.parseLong(required(p, "kafkaPid", file)),
          required(p, "username", file),
          required(p, "password", file),
          Boolean.parseBoolean(p.getProperty("detached", "false")),
          Integer.parseInt(p.getProperty("kafkaBrokers", "1")),
          p.getProperty("bootstrapServers"));
    } catch (IOException | NumberFormatException e) {
      throw new LocalStackException("cannot read stack file " + file + ": " + e, e);
    }
  }

  private static String required(Properties p, String key, Path file) {
    String value = p.getProperty(key);
    if (value == null) {
      throw new LocalStackException("stack file " + file + " has no '" + key + "'");
    }
    return value;
  }
}
