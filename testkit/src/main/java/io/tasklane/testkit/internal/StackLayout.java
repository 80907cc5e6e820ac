package io.tasklane.testkit.internal;

import java.nio.file.Path;

/**
 * Where everything of one stack lives under its base dir. A value; any thread.
 *
 * @param baseDir absolute base dir of the stack
 */
public record StackLayout(Path baseDir) {

  /** Longest unix socket path we hand to mariadbd (the kernel limit is 107 bytes). */
  private static final int MAX_SOCKET_PATH = 100;

  public StackLayout {
    baseDir = baseDir.toAbsolutePath().normalize();
  }

  public Path mariaDbDir() {
    return baseDir.resolve("mariadb");
  }

  public Path dataDir() {
    return mariaDbDir().resolve("data");
  }

  public Path binlogDir() {
    return mariaDbDir().resolve("binlog");
  }

  /** Marker written once {@code mariadb-install-db} succeeded. */
  public Path initializedMarker() {
    return mariaDbDir().resolve(".initialized");
  }

  public Path mariaDbPidFile() {
    return mariaDbDir().resolve("mariadbd.pid");
  }

  public Path mariaDbErrorLog() {
    return mariaDbDir().resolve("error.log");
  }

  public Path mariaDbOutputLog() {
    return mariaDbDir().resolve("stdout.log");
  }

  public Path installLog() {
    return mariaDbDir().resolve("install-db.log");
  }

  /** The socket file; falls back to /tmp when the base dir is too deep for a unix socket. */
  public Path socket() {
    Path socket = mariaDbDir().resolve("mariadbd.sock");
    if (socket.toString().length() <= MAX_SOCKET_PATH) {
      return socket;
    }
    return Path.of(
        System.getProperty("java.io.tmpdir"),
        "tasklane-" + Integer.toHexString(baseDir.toString().hashCode()) + ".sock");
  }

  /** The token on mariadbd's command line that identifies OUR server. */
  public String mariaDbMarker() {
    return "--datadir=" + dataDir();
  }

  public Path kafkaDir() {
    return baseDir.resolve("kafka");
  }

  /** The 3-broker cluster of a stack started with {@code brokers(3)}: a dir per node. */
  public Path kafkaClusterDir() {
    return baseDir.resolve("kafka-cluster");
  }

  public Path kafkaDataDir() {
    return kafkaDir().resolve("data");
  }

  /** Its path is also the token on the broker's command line that identifies OUR broker. */
  public Path kafkaProperties() {
    return kafkaDir().resolve("server.properties");
  }

  public Path kafkaLog() {
    return kafkaDir().resolve("broker.log");
  }

  public Path kafkaPidFile() {
    return kafkaDir().resolve("kafka.pid");
  }

  public Path stackProperties() {
    return baseDir.resolve("stack.properties");
  }

  public Path lockFile() {
    return baseDir.resolve(".lock");
  }
}
