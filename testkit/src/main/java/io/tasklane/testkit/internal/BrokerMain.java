package io.tasklane.testkit.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Entry point of the separate broker JVM (never loaded in the test JVM): formats the KRaft storage
 * on first start, optionally exits when the parent JVM dies, then runs {@code kafka.Kafka}.
 *
 * <p>Arguments: {@code [--parent-pid PID] [--format CLUSTER_ID] [--scram-file FILE]
 * SERVER_PROPERTIES}; each line of the scram file is a StorageTool {@code --add-scram} value (the
 * file is deleted once read, so no password appears in a command line). Runs on the broker JVM's
 * main thread; the parent watch runs on a daemon thread.
 */
public final class BrokerMain {

  private BrokerMain() {}

  public static void main(String[] args) {
    long parentPid = -1;
    String clusterId = null;
    String properties = null;
    String scramFile = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--parent-pid" -> parentPid = Long.parseLong(args[++i]);
        case "--format" -> clusterId = args[++i];
        case "--scram-file" -> scramFile = args[++i];
        default -> properties = args[i];
      }
    }
    if (properties == null) {
      System.err.println("usage: BrokerMain [--parent-pid PID] [--format ID] server.properties");
      System.exit(2);
    }
    if (parentPid > 0) {
      watchParent(parentPid);
    }
    if (clusterId != null) {
      List<String> format = new ArrayList<>(List.of("format", "-t", clusterId, "-c", properties));
      format.add("--ignore-formatted");
      for (String scram : readAndDelete(scramFile)) {
        format.add("--add-scram");
        format.add(scram);
      }
      int code = kafka.tools.StorageTool.execute(format.toArray(String[]::new), System.out);
      if (code != 0) {
        System.err.println("StorageTool format failed with exit code " + code);
        System.exit(code);
      }
    }
    kafka.Kafka.main(new String[] {properties});
  }

  private static List<String> readAndDelete(String file) {
    if (file == null) {
      return List.of();
    }
    try {
      Path path = Path.of(file);
      List<String> lines = Files.readAllLines(path).stream().filter(l -> !l.isBlank()).toList();
      Files.delete(path);
      return lines;
    } catch (IOException e) {
      System.err.println("cannot read the SCRAM bootstrap file " + file + ": " + e);
      System.exit(2);
      return List.of();
    }
  }

  /** Exits this JVM (Kafka's own hook shuts down cleanly) when the parent JVM is gone. */
  private static void watchParent(long parentPid) {
    Thread watch =
        new Thread(
            () -> {
              ProcessHandle.of(parentPid).ifPresent(p -> p.onExit().join());
              PrintStream err = System.err;
              err.println("tasklane: parent JVM " + parentPid + " is gone, stopping the broker");
              Thread halt =
                  new Thread(
                      () -> {
                        Processes.pause(15_000);
                        Runtime.getRuntime().halt(1);
                      },
                      "tasklane-halt");
              halt.setDaemon(true);
              halt.start();
              System.exit(0);
            },
            "tasklane-parent-watch");
    watch.setDaemon(true);
    watch.start();
  }
}
