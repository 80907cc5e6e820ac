package io.tasklane.chaos;

import io.tasklane.harness.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/chaos}: runs the suite and writes {@code target/chaos/results.json}. Exit code 0 when
 * lost = 0, duplicate_effects = 0, order_violations = 0, overlaps = 0 and the schedule's checks
 * pass, 1 otherwise, 2 on bad flags.
 */
@Command(
    name = "bin/chaos",
    mixinStandardHelpOptions = true,
    description = "Runs Tasklane's fault suite on a private local stack.")
public final class ChaosMain implements Callable<Integer> {
  @Mixin Cli.Home home;

  @Mixin Cli.Db db;

  @Option(
      names = "--cycles",
      defaultValue = "" + ChaosOptions.DEFAULT_CYCLES,
      description = "kill -9 cycles (${DEFAULT-VALUE})")
  int cycles;

  @Option(
      names = "--rate",
      defaultValue = "" + ChaosOptions.DEFAULT_RATE,
      description = "tasks offered per second (${DEFAULT-VALUE})")
  int rate;

  @Option(
      names = "--min-gap",
      defaultValue = "5",
      description = "shortest time between two kills, seconds (${DEFAULT-VALUE})")
  int minGap;

  @Option(
      names = "--max-gap",
      defaultValue = "15",
      description = "longest time between two kills, seconds (${DEFAULT-VALUE})")
  int maxGap;

  @Option(
      names = "--drain-timeout",
      defaultValue = "600",
      description = "how long the drain may take, seconds (${DEFAULT-VALUE})")
  int drainTimeout;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "seed of the victim and gap choices (${DEFAULT-VALUE})")
  int seed;

  @Option(
      names = "--no-broker-restart",
      negatable = true,
      description = "skip (or, without no-, keep) the Kafka broker restart mid-load")
  boolean noBrokerRestart;

  @Option(
      names = "--no-mariadb-restart",
      negatable = true,
      description = "skip (or keep) the MariaDB restart mid-load (MariaDB runs only)")
  boolean noMariaDbRestart;

  @Option(
      names = "--no-binlog-purge",
      negatable = true,
      description = "skip (or keep) the binlog purge under a stopped relay (MariaDB runs only)")
  boolean noBinlogPurge;

  @Option(
      names = "--brokers",
      defaultValue = "1",
      description =
          "1, or 3: a private three-broker cluster at Kafka's topic defaults with broker faults"
              + " (kill -9 of the leader and of the active controller, a rolling restart, one"
              + " broker left down) (${DEFAULT-VALUE})")
  int brokers;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ChaosOptions options;
    try {
      options = options();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    ChaosResult result = new ChaosRun(options, System.out).run();
    Path file = options.home().resolve("target/chaos/results.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, result.toJson() + "\n");
    System.out.println();
    System.out.println("== Tasklane chaos summary ==");
    System.out.println("  database: " + options.db().label());
    System.out.println("  Kafka brokers: " + options.brokers());
    System.out.printf(
        "  tasks: %d, lost: %d, duplicate effects: %d, ordered tasks: %d, order violations: %d,"
            + " overlaps: %d%n",
        result.tasks(),
        result.lost(),
        result.duplicateEffects(),
        result.orderedTasks(),
        result.orderViolations(),
        result.overlaps());
    result.faults().forEach(f -> System.out.println("  " + f));
    result.notes().forEach(n -> System.out.println("  note: " + n));
    System.out.println(result.toJson());
    System.out.println((result.passed() ? "RESULT: PASS" : "RESULT: FAIL") + " (" + file + ")");
    return result.passed() ? 0 : 1;
  }

  /** The run the flags describe; throws IllegalArgumentException naming a refused value. */
  ChaosOptions options() {
    return ChaosOptions.builder(home.path())
        .cycles(cycles)
        .rate(rate)
        .gaps(Duration.ofSeconds(minGap), Duration.ofSeconds(maxGap))
        .drainTimeout(Duration.ofSeconds(drainTimeout))
        .seed(seed)
        .db(db.kind())
        .faults(!noBrokerRestart, !noMariaDbRestart, !noBinlogPurge)
        .brokers(brokers)
        .build();
  }

  /** Parses {@code args} as {@code bin/chaos} does; bad flags or values throw. */
  static ChaosOptions parse(String... args) {
    ChaosMain main = new ChaosMain();
    new CommandLine(main).parseArgs(args);
    return main.options();
  }

  public static void main(String[] args) {
    Cli.exit(new ChaosMain(), args);
  }
}
