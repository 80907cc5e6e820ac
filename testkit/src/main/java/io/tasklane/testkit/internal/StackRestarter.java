package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackConfig;
import io.tasklane.testkit.LocalStackException;
import java.io.IOException;
import java.time.Duration;

/**
 * Restarts one server of a started stack on the same ports and data directories (for fault tests):
 * a graceful stop (SIGTERM, SIGKILL after 15 s), a downtime, a relaunch, and a wait for readiness.
 * Runs on the calling thread; the caller serialises calls.
 */
public final class StackRestarter {
  private static final Duration GRACE = Duration.ofSeconds(15);

  private StackRestarter() {}

  /** Restarts the broker; returns the stack with the new broker and the rewritten info. */
  public static StackStarter.Started restartKafka(
      StackStarter.Started s, LocalStackConfig config, Duration downtime) {
    s.kafka().stop(GRACE);
    Processes.pause(downtime.toMillis());
    StackInfo old = s.info();
    try {
      KafkaBroker kafka =
          KafkaBroker.launch(
              config,
              s.dir().layout(),
              old.kafkaPort(),
              old.kafkaControllerPort(),
              s.kafka().security());
      kafka.awaitReady(System.nanoTime() + config.startTimeout().toNanos());
      StackInfo info =
          new StackInfo(
              old.baseDir(),
              old.mariaDbPort(),
              old.kafkaPort(),
              old.kafkaControllerPort(),
              old.mariaDbPid(),
              kafka.pid(),
              old.username(),
              old.password(),
              old.detached());
      info.write(s.dir().layout().stackProperties());
      return new StackStarter.Started(s.dir(), s.mariaDb(), kafka, info);
    } catch (IOException e) {
      throw new LocalStackException("restarting Kafka failed: " + e, e);
    }
  }

  /** Restarts MariaDB; returns the stack with the new server and the rewritten info. */
  public static StackStarter.Started restartMariaDb(
      StackStarter.Started s, LocalStackConfig config, Duration downtime) {
    s.mariaDb().stop(GRACE);
    Processes.pause(downtime.toMillis());
    StackInfo old = s.info();
    try {
      MariaDbServer mariaDb =
          MariaDbServer.launch(
              MariaDbBinaries.locate(), config, s.dir().layout(), old.mariaDbPort());
      mariaDb.awaitReady(System.nanoTime() + config.startTimeout().toNanos());
      StackInfo info =
          new StackInfo(
              old.baseDir(),
              old.mariaDbPort(),
              old.kafkaPort(),
              old.kafkaControllerPort(),
              mariaDb.pid(),
              old.kafkaPid(),
              old.username(),
              old.password(),
              old.detached(),
              old.kafkaBrokers(),
              old.clusterBootstrap());
      info.write(s.dir().layout().stackProperties());
      return new StackStarter.Started(s.dir(), mariaDb, s.kafka(), info, s.cluster());
    } catch (IOException e) {
      throw new LocalStackException("restarting MariaDB failed: " + e, e);
    }
  }
}
