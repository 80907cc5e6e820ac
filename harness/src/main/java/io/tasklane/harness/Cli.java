package io.tasklane.harness;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The command-line handling of {@code bin/demo}, {@code bin/bench} and {@code bin/chaos}: picocli
 * commands with {@code --help} and {@code --version}, the {@link Home} option they share, and exit
 * codes 0 (done, passed), 1 (failed or an error) and 2 (bad flags).
 */
public final class Cli {
  private Cli() {}

  /** Runs {@code command} (a picocli command) with {@code args} and exits with its exit code. */
  public static void exit(Object command, String... args) {
    System.exit(new CommandLine(command).execute(args));
  }

  /**
   * {@code --db mariadb|postgres}: the database of the run's outbox; a picocli mixin ({@code @Mixin
   * Cli.Db db}).
   */
  public static final class Db {
    @Option(
        names = "--db",
        defaultValue = "mariadb",
        paramLabel = "mariadb|postgres",
        description =
            "database of the outbox and the handlers' effects: mariadb (binlog) or postgres"
                + " (the stack's private PostgreSQL, logical decoding) (${DEFAULT-VALUE})")
    String db;

    /**
     * The database the flag names.
     *
     * @throws IllegalArgumentException naming the refused value
     */
    public DatabaseKind kind() {
      return DatabaseKind.parse(db);
    }
  }

  /** {@code --home DIR}: the Tasklane checkout; a picocli mixin ({@code @Mixin Cli.Home home}). */
  public static final class Home {
    @Option(names = "--home", defaultValue = ".", description = "the Tasklane checkout")
    Path home;

    /** The checkout, absolute and normalized. */
    public Path path() {
      return home.toAbsolutePath().normalize();
    }
  }
}
