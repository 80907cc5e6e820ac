package io.tasklane.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code bin/chaos}: runs the suite and writes {@code target/chaos/results.json}. Flags: {@code
 * --home DIR}, {@code --cycles N} (20), {@code --rate N} (1000 tasks/s), {@code --min-gap S} (5),
 * {@code --max-gap S} (15), {@code --drain-timeout S} (600), {@code --seed N}, {@code
 * --no-broker-restart}, {@code --no-mariadb-restart}, {@code --no-binlog-purge}. Exit code 0 when
 * lost = 0 and duplicate_effects = 0, 1 otherwise, 2 on bad flags.
 */
public final class ChaosMain {
  private ChaosMain() {}

  public static void main(String[] args) throws Exception {
    ChaosOptions options;
    try {
      options = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bin/chaos: " + e.getMessage());
      System.exit(2);
      return;
    }
    ChaosResult result = new ChaosRun(options, System.out).run();
    Path file = options.home().resolve("target/chaos/results.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, result.toJson() + "\n");
    System.out.println();
    System.out.println("== Tasklane chaos summary ==");
    result.faults().forEach(f -> System.out.println("  " + f));
    result.notes().forEach(n -> System.out.println("  note: " + n));
    System.out.println(result.toJson());
    System.out.println((result.passed() ? "RESULT: PASS" : "RESULT: FAIL") + " (" + file + ")");
    System.exit(result.passed() ? 0 : 1);
  }

  static ChaosOptions parse(String[] args) {
    ChaosOptions o = ChaosOptions.defaults(Path.of("").toAbsolutePath());
    boolean broker = true;
    boolean mariaDb = true;
    boolean purge = true;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--home" -> o = rehome(o, Path.of(value(args, ++i, a)).toAbsolutePath());
        case "--cycles" -> o = o.withCycles(number(args, ++i, a));
        case "--rate" -> o = o.withRate(number(args, ++i, a));
        case "--min-gap" -> o = o.withGaps(Duration.ofSeconds(number(args, ++i, a)), o.maxGap());
        case "--max-gap" -> o = o.withGaps(o.minGap(), Duration.ofSeconds(number(args, ++i, a)));
        case "--drain-timeout" -> o = o.withDrainTimeout(Duration.ofSeconds(number(args, ++i, a)));
        case "--seed" -> o = o.withSeed(number(args, ++i, a));
        case "--no-broker-restart" -> broker = false;
        case "--no-mariadb-restart" -> mariaDb = false;
        case "--no-binlog-purge" -> purge = false;
        default -> throw new IllegalArgumentException("unknown flag " + a);
      }
    }
    return o.withFaults(broker, mariaDb, purge);
  }

  private static ChaosOptions rehome(ChaosOptions o, Path home) {
    return new ChaosOptions(
        home,
        o.cycles(),
        o.rate(),
        o.minGap(),
        o.maxGap(),
        o.brokerRestart(),
        o.mariaDbRestart(),
        o.binlogPurge(),
        o.drainTimeout(),
        o.seed());
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }

  private static int number(String[] args, int i, String flag) {
    try {
      return Integer.parseInt(value(args, i, flag));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs a whole number, got " + args[i]);
    }
  }
}
