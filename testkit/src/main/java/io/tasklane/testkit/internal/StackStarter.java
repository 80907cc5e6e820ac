package io.tasklane.testkit.internal;

import io.tasklane.testkit.KafkaCluster;
import io.tasklane.testkit.LocalStackConfig;
import io.tasklane.testkit.LocalStackException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;

/**
 * Starts MariaDB and Kafka in parallel (both are child processes; the broker JVM boots while
 * mariadb-install-db and mariadbd run) and stops whatever was started if anything fails. Runs on
 * the calling thread.
 */
public final class StackStarter {

  /** The app user of every local stack. */
  public static final String USERNAME = "tasklane";

  /** Its password (a local test stack on 127.0.0.1 only). */
  public static final String PASSWORD = "tasklane";

  private static final Duration KAFKA_GRACE = Duration.ofSeconds(15);
  private static final Duration MARIADB_GRACE = Duration.ofSeconds(30);
  private static final int ATTEMPTS = 3;
  private static final Duration CLUSTER_START_TIMEOUT = Duration.ofSeconds(120);

  private StackStarter() {}

  /**
   * A started stack: the lock on its dir, both servers, and what was written to stack.properties.
   *
   * @param dir the locked base dir
   * @param mariaDb the MariaDB server
   * @param kafka the broker; null when {@code cluster} is the stack's Kafka
   * @param info the stack.properties content
   * @param cluster the 3-broker cluster of a {@code brokers(3)} stack; null with one broker
   */
  public record Started(
      StackDir dir,
      MariaDbServer mariaDb,
      KafkaBroker kafka,
      StackInfo info,
      KafkaCluster cluster) {

    /** A stack with one broker. */
    public Started(StackDir dir, MariaDbServer mariaDb, KafkaBroker kafka, StackInfo info) {
      this(dir, mariaDb, kafka, info, null);
    }

    /** Stops Kafka, then MariaDB (graceful, then forcibly), then releases the dir. */
    public void stop() {
      try {
        if (cluster != null) {
          cluster.close();
        } else {
          kafka.stop(KAFKA_GRACE);
        }
      } finally {
        try {
          mariaDb.stop(MARIADB_GRACE);
        } finally {
          try {
            Files.deleteIfExists(dir.layout().stackProperties());
            dir.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
  }

  /**
   * Starts both servers; blocks until both are ready or throws {@link LocalStackException}. A
   * server that lost its auto-picked port to another process between pick and bind is retried on
   * fresh ports (up to {@value #ATTEMPTS} attempts).
   */
  public static Started start(LocalStackConfig config) {
    MariaDbBinaries binaries = MariaDbBinaries.locate();
    boolean autoPorts =
        config.mariaDbPort() == 0 && config.kafkaPort() == 0 && config.kafkaControllerPort() == 0;
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(binaries, config);
      } catch (LocalStackException e) {
        if (!autoPorts || attempt >= ATTEMPTS || !isPortConflict(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean isPortConflict(LocalStackException e) {
    String message = String.valueOf(e.getMessage());
    return message.contains("Address already in use") || message.contains("Bind on TCP/IP port");
  }

  private static Started startOnce(MariaDbBinaries binaries, LocalStackConfig config) {
    StackLayout layout = new StackLayout(config.baseDir());
    long deadline = System.nanoTime() + config.startTimeout().toNanos();
    StackDir dir;
    try {
      dir = StackDir.lock(layout);
    } catch (IOException e) {
      throw new LocalStackException("cannot lock stack dir " + layout.baseDir() + ": " + e, e);
    }
    KafkaBroker kafka = null;
    MariaDbServer mariaDb = null;
    try {
      refuseRunningDetachedStack(layout);
      dir.stopStaleProcesses();
      if (config.kafkaBrokers() > 1) {
        // three JVMs booting on a small machine: at least the cluster's own start timeout
        long clusterDeadline = System.nanoTime() + CLUSTER_START_TIMEOUT.toNanos();
        return startWithCluster(binaries, config, layout, dir, Math.max(deadline, clusterDeadline));
      }
      int mariaDbPort = Ports.resolve("MariaDB", "mariaDbPort", config.mariaDbPort());
      int kafkaPort = Ports.resolve("Kafka", "kafkaPort", config.kafkaPort());
      int controllerPort =
          Ports.resolve("Kafka controller", "kafkaControllerPort", config.kafkaControllerPort());
      KafkaSecurity security = null;
      if (config.kafkaSaslSsl()) {
        // Fresh secrets every start: the old log holds the old super user, so it goes too.
        Dirs.deleteRecursively(layout.kafkaDataDir());
        security = KafkaSecurity.generate(layout.kafkaDir().resolve("tls"));
      }
      kafka = KafkaBroker.launch(config, layout, kafkaPort, controllerPort, security);
      mariaDb = MariaDbServer.launch(binaries, config, layout, mariaDbPort);
      mariaDb.awaitReady(deadline);
      MariaDbAdmin.bootstrap(
          MariaDbServer.rootJdbcUrl(mariaDbPort), USERNAME, PASSWORD, StackInfo.DEFAULT_DATABASE);
      kafka.awaitReady(deadline);
      StackInfo info =
          new StackInfo(
              layout.baseDir(),
              mariaDbPort,
              kafkaPort,
              controllerPort,
              mariaDb.pid(),
              kafka.pid(),
              USERNAME,
              PASSWORD,
              config.detached());
      info.write(layout.stackProperties());
      return new Started(dir, mariaDb, kafka, info);
    } catch (IOException | RuntimeException e) {
      stopQuietly(kafka, mariaDb, dir, e);
      if (e instanceof LocalStackException lse) {
        throw lse;
      }
      throw new LocalStackException(
          "starting the stack in " + layout.baseDir() + " failed: " + e, e);
    }
  }

  /**
   * MariaDB and a {@link KafkaCluster} of {@code config.kafkaBrokers()} nodes under {@link
   * StackLayout#kafkaClusterDir()}, formatted afresh: MariaDB boots while the cluster starts.
   */
  private static Started startWithCluster(
      MariaDbBinaries binaries,
      LocalStackConfig config,
      StackLayout layout,
      StackDir dir,
      long deadline)
      throws IOException {
    MariaDbServer mariaDb = null;
    KafkaCluster cluster = null;
    try {
      int mariaDbPort = Ports.resolve("MariaDB", "mariaDbPort", config.mariaDbPort());
      mariaDb = MariaDbServer.launch(binaries, config, layout, mariaDbPort);
      Dirs.deleteRecursively(layout.kafkaClusterDir());
      cluster =
          KafkaCluster.start(
              layout.kafkaClusterDir(),
              config.kafkaBrokers(),
              config.kafkaHeap(),
              config.kafkaFastStart(),
              config.detached(),
              config.kafkaSettings(),
              Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1_000_000_000L)));
      mariaDb.awaitReady(deadline);
      MariaDbAdmin.bootstrap(
          MariaDbServer.rootJdbcUrl(mariaDbPort), USERNAME, PASSWORD, StackInfo.DEFAULT_DATABASE);
      StackInfo info =
          new StackInfo(
              layout.baseDir(),
              mariaDbPort,
              cluster.port(1),
              0,
              mariaDb.pid(),
              cluster.pid(1),
              USERNAME,
              PASSWORD,
              config.detached(),
              config.kafkaBrokers(),
              cluster.bootstrapServers());
      info.write(layout.stackProperties());
      return new Started(dir, mariaDb, null, info, cluster);
    } catch (IOException | RuntimeException e) {
      try {
        if (cluster != null) {
          cluster.close();
        }
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      try {
        if (mariaDb != null) {
          mariaDb.stop(Duration.ofSeconds(10));
        }
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e; // the caller releases the dir
    }
  }

  private static void refuseRunningDetachedStack(StackLayout layout) {
    if (!Files.exists(layout.stackProperties())) {
      return;
    }
    StackInfo previous;
    try {
      previous = StackInfo.read(layout.stackProperties());
    } catch (LocalStackException e) {
      return; // unreadable leftover: treated as stale
    }
    if (previous.detached() && previous.isRunning()) {
      throw new LocalStackException(
          "a detached stack is already running in "
              + layout.baseDir()
              + "; attach with TASKLANE_STACK="
              + layout.stackProperties()
              + " or stop it with bin/stack down");
    }
  }

  private static void stopQuietly(
      KafkaBroker kafka, MariaDbServer mariaDb, StackDir dir, Exception failure) {
    try {
      if (kafka != null) {
        kafka.stop(Duration.ofSeconds(5));
      }
      if (mariaDb != null) {
        mariaDb.stop(Duration.ofSeconds(10));
      }
      dir.close();
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
