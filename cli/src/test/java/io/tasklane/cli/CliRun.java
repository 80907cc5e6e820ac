package io.tasklane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.cli.internal.Console;
import io.tasklane.core.WireCodec;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs the CLI in this JVM as a user runs it (the real command line, the real HTTP client), with
 * its own output streams, environment and standard input.
 */
final class CliRun {
  private final Map<String, String> env = new HashMap<>();
  private String stdin = "";
  private Path home = Path.of("target", "cli-home").toAbsolutePath();

  /** The exit code and what the run printed. */
  record Result(int exit, String out, String err) {
    JsonNode json() {
      return WireCodec.readTree(out);
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  CliRun env(String key, String value) {
    env.put(key, value);
    return this;
  }

  /** The endpoint and the token, through the environment (as the docs recommend). */
  CliRun api(String endpoint, String token) {
    return env("TASKLANE_ENDPOINT", endpoint).env("TASKLANE_TOKEN", token);
  }

  CliRun stdin(String text) {
    this.stdin = text;
    return this;
  }

  CliRun home(Path dir) {
    this.home = dir;
    return this;
  }

  Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Console console =
        new Console(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new BufferedReader(new StringReader(stdin)),
            Map.copyOf(env),
            home,
            Clock.systemUTC());
    int exit = TasklaneCli.run(console, args);
    return new Result(exit, out.toString(), err.toString());
  }
}
