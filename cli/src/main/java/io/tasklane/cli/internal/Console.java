package io.tasklane.cli.internal;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * What a run of the CLI sees of the world: its output streams, its input (for confirmations), its
 * environment variables, the user's home directory and the clock. {@code main} passes the
 * process's; tests pass their own.
 */
public record Console(
    PrintWriter out,
    PrintWriter err,
    BufferedReader in,
    Map<String, String> env,
    Path home,
    Clock clock) {}
