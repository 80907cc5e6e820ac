package io.tasklane.testkit;

import io.tasklane.testkit.internal.ClusterProcesses;
import io.tasklane.testkit.internal.PostgresSupport;
import io.tasklane.testkit.internal.Processes;
import io.tasklane.testkit.internal.StackDir;
import io.tasklane.testkit.internal.StackInfo;
import io.tasklane.testkit.internal.StackLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Command line behind {@code bin/stack}: {@code up|down|status [--dir DIR] [--durable] [--full-jit]
 * [--brokers 1|3]}.
 *
 * <ul>
 *   <li>{@code up} starts a DETACHED stack (it keeps running after this JVM exits), writes {@code
 *       DIR/stack.properties} and prints the JDBC URL and bootstrap servers; exits 0 if a stack is
 *       already up there. {@code --durable} uses flush-log-at-trx-commit=1 and sync-binlog=1;
 *       {@code --full-jit} runs the broker with C2 (benchmarks; slower start); {@code --brokers 3}
 *       starts a cluster of three KRaft broker+controller nodes instead of one broker (their ports
 *       and the cluster dir in stack.properties).
 *   <li>{@code down} stops both servers (SIGTERM, SIGKILL after a timeout), removes the file; exits
 *       0 even if nothing runs.
 *   <li>{@code status} prints what runs; exits 0 if both servers are alive, 1 otherwise.
 * </ul>
 *
 * Runs on the main thread and ends the JVM with the exit code.
 */
public final class StackMain {

  private StackMain() {}

  public static void main(String[] args) {
    // The readiness probe's admin client is chatty while the broker boots; keep the CLI quiet.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.exit(run(args, System.out));
  }

  /** Runs one command; returns the exit code (2 for a usage error). */
  static int run(String[] args, PrintStream out) {
    if (args.length == 0) {
      return usage(out);
    }
    LocalStackConfig.Builder builder = LocalStackConfig.builder();
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--dir") && i + 1 < args.length) {
        builder.baseDir(Path.of(args[++i]));
      } else if (args[i].equals("--durable")) {
        builder.durability(1, 1);
      } else if (args[i].equals("--full-jit")) {
        builder.kafkaFastStart(false);
      } else if (args[i].equals("--brokers") && i + 1 < args.length) {
        try {
          builder.brokers(Integer.parseInt(args[++i]));
        } catch (NumberFormatException e) {
          return usage(out);
        }
      } else {
        return usage(out);
      }
    }
    LocalStackConfig config;
    try {
      config = builder.build();
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return usage(out);
    }
    StackLayout layout = new StackLayout(config.baseDir());
    return switch (args[0]) {
      case "up" -> up(config, layout, out);
      case "down" -> down(layout, out);
      case "status" -> status(layout, out);
      default -> usage(out);
    };
  }

  private static int up(LocalStackConfig config, StackLayout layout, PrintStream out) {
    Optional<StackInfo> running = read(layout).filter(StackInfo::isRunning);
    if (running.isPresent()) {
      out.println("stack already up in " + layout.baseDir());
      StackInfo info = running.get();
      print(info, layout, out);
      out.print(
          appConfig(
              info.jdbcUrl(StackInfo.DEFAULT_DATABASE),
              info.username(),
              info.password(),
              info.bootstrapServers()));
      return 0;
    }
    long t0 = System.nanoTime();
    try {
      LocalStack stack = LocalStack.start(config.toBuilder().detached(true).build());
      long millis = Duration.ofNanos(System.nanoTime() - t0).toMillis();
      StackInfo info = StackInfo.read(layout.stackProperties());
      print(info, layout, out);
      out.println("started in " + millis + " ms (" + stack.baseDir() + ")");
      out.print(
          appConfig(
              info.jdbcUrl(StackInfo.DEFAULT_DATABASE),
              info.username(),
              info.password(),
              info.bootstrapServers()));
      return 0;
    } catch (LocalStackException e) {
      out.println("stack up failed: " + e.getMessage());
      return 1;
    }
  }

  private static int down(StackLayout layout, PrintStream out) {
    Optional<StackInfo> info = read(layout);
    if (info.isPresent()) {
      StackInfo i = info.get();
      if (i.isCluster()) {
        int stopped = ClusterProcesses.stopAll(layout.kafkaClusterDir(), Duration.ofSeconds(20));
        out.println("Kafka cluster: " + stopped + " node(s) stopped");
      } else {
        stop(
            "Kafka",
            i.kafkaPid(),
            layout.kafkaProperties().toString(),
            Duration.ofSeconds(20),
            out);
      }
      stop("MariaDB", i.mariaDbPid(), layout.mariaDbMarker(), Duration.ofSeconds(30), out);
    }
    try {
      Optional<StackDir> dir = StackDir.tryLock(layout);
      if (dir.isPresent()) {
        try (StackDir locked = dir.get()) {
          int stale = locked.stopStaleProcesses();
          if (stale > 0) {
            out.println("stopped " + stale + " leftover process(es) of " + layout.baseDir());
          }
        }
      }
      Files.deleteIfExists(layout.stackProperties());
      // PostgreSQL servers that test JVMs started beside this stack (LocalStack.postgres()) and
      // left behind when they were killed.
      PostgresSupport.stopAll(layout.baseDir());
    } catch (IOException e) {
      out.println("warning: cleaning " + layout.baseDir() + " failed: " + e);
    }
    out.println(info.isPresent() ? "stack down" : "no stack in " + layout.baseDir());
    return 0;
  }

  private static void stop(String name, long pid, String marker, Duration grace, PrintStream out) {
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !Processes.isOurs(pid, marker)) {
      out.println(name + " (pid " + pid + ") is not running");
      return;
    }
    boolean graceful = Processes.stop(process.get(), grace);
    out.println(name + " (pid " + pid + ") stopped" + (graceful ? "" : " (killed after timeout)"));
  }

  private static int status(StackLayout layout, PrintStream out) {
    Optional<StackInfo> info = read(layout);
    if (info.isEmpty()) {
      out.println("no stack in " + layout.baseDir());
      return 1;
    }
    StackInfo i = info.get();
    boolean maria = Processes.isOurs(i.mariaDbPid(), layout.mariaDbMarker());
    out.println("MariaDB pid " + i.mariaDbPid() + (maria ? " running" : " NOT running"));
    boolean kafka;
    if (i.isCluster()) {
      kafka = true;
      for (Path node : ClusterProcesses.nodeDirs(layout.kafkaClusterDir())) {
        var running = ClusterProcesses.processes(node);
        kafka &= !running.isEmpty();
        out.println(
            "Kafka   "
                + node.getFileName()
                + (running.isEmpty()
                    ? " NOT running"
                    : " pid " + running.get(0).pid() + " running"));
      }
    } else {
      kafka = Processes.isOurs(i.kafkaPid(), layout.kafkaProperties().toString());
      out.println("Kafka   pid " + i.kafkaPid() + (kafka ? " running" : " NOT running"));
    }
    print(i, layout, out);
    return maria && kafka ? 0 : 1;
  }

  private static void print(StackInfo info, StackLayout layout, PrintStream out) {
    out.println("jdbcUrl=" + info.jdbcUrl(StackInfo.DEFAULT_DATABASE));
    out.println("username=" + info.username() + " password=" + info.password());
    out.println("bootstrapServers=" + info.bootstrapServers());
    if (info.isCluster()) {
      out.println(
          "kafkaBrokers=" + info.kafkaBrokers() + " (cluster in " + layout.kafkaClusterDir() + ")");
    }
    out.println("TASKLANE_STACK=" + layout.stackProperties());
  }

  /**
   * The settings of the relay, the scheduler and a service's worker for this stack, in the forms
   * docs/getting-started.md and docs/getting-started-spring.md use: property files, application.yml
   * keys and environment variables (Micronaut's and Spring Boot's names).
   */
  static String appConfig(String jdbcUrl, String user, String password, String bootstrap) {
    String jdbcHostPort = jdbcUrl.replaceFirst("^jdbc:[a-z]+://([^/]+)/.*$", "$1");
    String host = jdbcHostPort.contains(":") ? jdbcHostPort.split(":")[0] : jdbcHostPort;
    String port = jdbcHostPort.contains(":") ? jdbcHostPort.split(":")[1] : "3306";
    String database = jdbcUrl.replaceFirst("^.*/([^/?]+)(\\?.*)?$", "$1");
    return String.join(
        "\n",
        "",
        "Tasklane apps on this stack (database '"
            + database
            + "', see docs/getting-started.md and docs/getting-started-spring.md):",
        "  relay.properties:",
        "    tasklane.relay.jdbc-url=" + jdbcUrl,
        "    tasklane.relay.username=" + user,
        "    tasklane.relay.password=" + password,
        "    tasklane.relay.bootstrap-servers=" + bootstrap,
        "  scheduler.properties:",
        "    tasklane.scheduler.bootstrap-servers=" + bootstrap,
        "  application.yml of your service:",
        "    datasources.default.url: " + jdbcUrl,
        "    datasources.default.username: " + user,
        "    datasources.default.password: " + password,
        "    tasklane.worker.bootstrap-servers: " + bootstrap,
        "  the tables: mariadb -h "
            + host
            + " -P "
            + port
            + " -u "
            + user
            + " -p"
            + password
            + " "
            + database
            + " < schema.sql",
        "  or as environment variables (they override the files):",
        "export TASKLANE_RELAY_JDBC_URL=" + jdbcUrl,
        "export TASKLANE_RELAY_USERNAME=" + user,
        "export TASKLANE_RELAY_PASSWORD=" + password,
        "export TASKLANE_RELAY_BOOTSTRAP_SERVERS=" + bootstrap,
        "export TASKLANE_SCHEDULER_BOOTSTRAP_SERVERS=" + bootstrap,
        "export DATASOURCES_DEFAULT_URL=" + jdbcUrl,
        "export DATASOURCES_DEFAULT_USERNAME=" + user,
        "export DATASOURCES_DEFAULT_PASSWORD=" + password,
        "export SPRING_DATASOURCE_URL=" + jdbcUrl,
        "export SPRING_DATASOURCE_USERNAME=" + user,
        "export SPRING_DATASOURCE_PASSWORD=" + password,
        "export TASKLANE_WORKER_BOOTSTRAP_SERVERS=" + bootstrap,
        "");
  }

  private static Optional<StackInfo> read(StackLayout layout) {
    if (!Files.isRegularFile(layout.stackProperties())) {
      return Optional.empty();
    }
    try {
      return Optional.of(StackInfo.read(layout.stackProperties()));
    } catch (LocalStackException e) {
      return Optional.empty();
    }
  }

  private static int usage(PrintStream out) {
    out.println(
        "usage: StackMain up|down|status [--dir DIR] [--durable] [--full-jit] [--brokers 1|3]");
    return 2;
  }
}
