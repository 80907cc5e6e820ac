package io.tasklane.examples.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A demo left running by {@code bin/demo --keep}: its state file {@code target/demo/kept.json} (API
 * URL and port, namespace, bootstrap servers, run directory, the stack directory when the run
 * started its own stack, and each app's name and pid), the viewer and operator tokens in {@code
 * target/demo/kept/*.token} (owner-only), and {@code bin/demo --stop}, which stops every process
 * the file names (those still alive and still this run's: same pid, same start time), then the
 * stack, and removes the state. Runs on the demo's main thread.
 */
final class KeptDemo {
  /** How long an app may take to stop after SIGTERM before it is killed. */
  static final Duration GRACE = Duration.ofSeconds(15);

  private KeptDemo() {}

  /** {@code <home>/target/demo/kept.json}. */
  static Path stateFile(Path home) {
    return home.resolve("target/demo/kept.json");
  }

  private static Path tokenDir(Path home) {
    return home.resolve("target/demo/kept");
  }

  /**
   * The apps and stack a kept run leaves behind; {@code stackDir} null when not its own; {@code
   * deadTask} a task id to try the CLI on (a dead task of the run, or {@code <id>}).
   */
  record Kept(
      String apiUrl,
      int httpPort,
      String namespace,
      String bootstrap,
      Path runDir,
      Path stackDir,
      List<JavaProcess> apps,
      String deadTask) {}

  /**
   * Refuses to start a second kept demo while one is recorded.
   *
   * @throws IllegalStateException telling to run {@code bin/demo --stop} first
   */
  static void requireNone(Path home) {
    if (Files.exists(stateFile(home))) {
      throw new IllegalStateException(
          "a kept demo is recorded in " + stateFile(home) + ": run bin/demo --stop first");
    }
  }

  /** Writes the state file and the token files, then prints how to reach the kept demo. */
  static void write(Path home, Kept k, String viewer, String operator, PrintStream out)
      throws IOException {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("apiUrl", k.apiUrl());
    o.put("httpPort", k.httpPort());
    o.put("namespace", k.namespace());
    o.put("bootstrapServers", k.bootstrap());
    o.put("runDir", k.runDir().toString());
    if (k.stackDir() != null) {
      o.put("stackDir", k.stackDir().toString());
    }
    ArrayNode apps = o.putArray("processes");
    for (JavaProcess p : k.apps()) {
      ObjectNode app = apps.addObject().put("name", p.name()).put("pid", p.pid());
      startOf(p.pid()).ifPresent(t -> app.put("start", t));
    }
    Path tokens = tokenDir(home);
    Files.createDirectories(tokens);
    Path viewerFile = secret(tokens.resolve("viewer.token"), viewer);
    Path operatorFile = secret(tokens.resolve("operator.token"), operator);
    Files.writeString(
        stateFile(home), WireCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(o));
    out.println();
    out.println("== kept running (bin/demo --stop stops it) ==");
    out.println("  API:            " + k.apiUrl());
    out.println("  viewer token:   " + viewer + "   (also in " + viewerFile + ")");
    out.println("  operator token: " + operator + "   (also in " + operatorFile + ")");
    out.println("  state:          " + stateFile(home));
    out.println("  try:");
    out.println("    export TASKLANE_ENDPOINT=" + k.apiUrl());
    out.println("    export TASKLANE_TOKEN_FILE=" + operatorFile);
    out.println("    export TASKLANE_BOOTSTRAP_SERVERS=" + k.bootstrap());
    out.println("    bin/tasklane tasks list --state DEAD");
    out.println("    bin/tasklane tasks show " + k.deadTask());
    out.println("    bin/tasklane tasks retry " + k.deadTask());
    out.println(
        "    bin/tasklane topics tail " + k.namespace() + ".tasks --max 5 --from-beginning");
  }

  private static Path secret(Path file, String value) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, value + "\n");
    return file;
  }

  /**
   * Stops what the state file names: each app still alive whose command line is this run's (a
   * reused pid is left alone), then the run's own stack, and removes the state. Exit code 0, also
   * when nothing was kept or everything had already died.
   */
  static int stop(Path home, PrintStream out) throws IOException {
    Path file = stateFile(home);
    if (!Files.exists(file)) {
      out.println("no kept demo (" + file + " does not exist)");
      return 0;
    }
    JsonNode state = WireCodec.readTree(Files.readString(file));
    String runDir = state.path("runDir").asText();
    List<JsonNode> apps = new java.util.ArrayList<>();
    state.path("processes").forEach(apps::add);
    java.util.Collections.reverse(apps); // workers first, the relay last
    for (JsonNode app : apps) {
      stopApp(app.path("name").asText(), app.path("pid").asLong(), app.path("start").asText(), out);
    }
    if (state.hasNonNull("stackDir")) {
      Path stackDir = Path.of(state.path("stackDir").asText());
      LocalStack.stopDetached(stackDir, out);
      deleteTree(stackDir);
    }
    deleteTree(Path.of(runDir).resolve("state-scheduler"));
    deleteTree(tokenDir(home));
    Files.delete(file);
    out.println("kept demo stopped; logs stay in " + Path.of(runDir).resolve("logs"));
    return 0;
  }

  /** When process {@code pid} started: with the pid, what tells it from a later one reusing it. */
  private static Optional<String> startOf(long pid) {
    return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(Object::toString);
  }

  /** Stops app {@code pid} if it is alive and still the process that started at {@code start}. */
  private static void stopApp(String name, long pid, String start, PrintStream out) {
    Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    boolean ours = p.isPresent() && startOf(pid).map(start::equals).orElse(false);
    if (!ours) {
      out.println("  " + name + " (pid " + pid + ") is not running");
      return;
    }
    ProcessHandle h = p.get();
    h.destroy();
    try {
      h.onExit().get(GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      out.println("  " + name + " (pid " + pid + ") stopped");
    } catch (java.util.concurrent.TimeoutException e) {
      h.destroyForcibly();
      h.onExit().join();
      out.println("  " + name + " (pid " + pid + ") killed after " + GRACE.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      h.destroyForcibly();
    } catch (java.util.concurrent.ExecutionException e) {
      out.println("  " + name + " (pid " + pid + "): " + e.getCause());
    }
  }

  /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
  static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
