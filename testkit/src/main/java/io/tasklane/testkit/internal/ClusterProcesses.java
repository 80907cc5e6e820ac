package io.tasklane.testkit.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The node JVMs of a stack's Kafka cluster as seen from outside it ({@code bin/stack status|down},
 * stale-process cleanup): every {@code node-<id>} dir under the cluster dir, found by the pid file
 * and by its server.properties path on a command line. Stateless; any thread.
 */
public final class ClusterProcesses {

  private ClusterProcesses() {}

  /** The {@code node-<id>} dirs under {@code clusterDir}, by id; empty if there is none. */
  public static List<Path> nodeDirs(Path clusterDir) {
    if (!Files.isDirectory(clusterDir)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(clusterDir)) {
      return list.filter(d -> d.getFileName().toString().matches("node-[0-9]+"))
          .filter(Files::isDirectory)
          .sorted()
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The live processes of one node dir (normally one). */
  public static List<ProcessHandle> processes(Path nodeDir) {
    return Processes.findOurs(
        nodeDir.resolve("server.properties").toString(),
        Processes.readPidFile(nodeDir.resolve("kafka.pid")));
  }

  /** True if a node of the cluster in {@code clusterDir} runs. */
  public static boolean anyAlive(Path clusterDir) {
    return nodeDirs(clusterDir).stream()
        .anyMatch(
            d ->
                Processes.readPidFile(d.resolve("kafka.pid"))
                    .filter(pid -> Processes.isOurs(pid, d.resolve("server.properties").toString()))
                    .isPresent());
  }

  /**
   * Stops every node of the cluster in {@code clusterDir} (SIGTERM, SIGKILL after {@code grace}, in
   * parallel); returns how many processes were stopped.
   */
  public static int stopAll(Path clusterDir, Duration grace) {
    List<ProcessHandle> all =
        nodeDirs(clusterDir).stream().flatMap(d -> processes(d).stream()).toList();
    all.parallelStream().forEach(p -> Processes.stop(p, grace));
    for (Path d : nodeDirs(clusterDir)) {
      try {
        Files.deleteIfExists(d.resolve("kafka.pid"));
      } catch (IOException e) {
        // best effort: a stale pid file is checked against /proc before it is trusted
      }
    }
    return all.size();
  }
}
