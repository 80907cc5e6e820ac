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
