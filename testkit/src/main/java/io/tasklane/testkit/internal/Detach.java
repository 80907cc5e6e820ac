package io.tasklane.testkit.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Runs detached servers in their own session ({@code setsid}), so that a Ctrl-C in the terminal
 * that ran {@code bin/stack up} does not reach them. setsid execs in place: the pid stays the same.
 */
public final class Detach {

  private Detach() {}

  /** The {@code setsid} program to put before a command, if this machine has one. */
  public static Optional<String> prefix() {
    for (String dir : new String[] {"/usr/bin", "/bin", "/usr/local/bin"}) {
      Path setsid = Path.of(dir, "setsid");
      if (Files.isExecutable(setsid)) {
        return Optional.of(setsid.toString());
      }
    }
    return Optional.empty();
  }
}
