package io.tasklane.examples.demo;

import io.tasklane.testkit.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts Tasklane's apps as separate JVMs, each on its own module's runtime classpath ({@code
 * <module>/target/classes} + {@code <module>/target/app.classpath}, written by the build), the way
 * a user deploys them.
 */
final class AppLauncher {
  static final String TOKEN = "demo-operator-token";

  private final Path home;
  private final Path logs;
  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final String bootstrap;
  private final String namespace;

  AppLauncher(
      Path home, String jdbcUrl, String user, String password, String bootstrap, String namespace) {
    this.home = home;
    this.logs = home.resolve("target/demo/logs");
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    this.bootstrap = bootstrap;
    this.namespace = namespace;
  }

  JavaProcess relay() {
    return JavaProcess.builder("io.tasklane.relay.RelayApp")
        .name("relay")
        .classpath(classpath("cdc-relay"))
        .jvmArg("-Xmx512m")
        .sysProp("tasklane.relay.jdbc-url", jdbcUrl)
        .sysProp("tasklane.relay.username", user)
        .sysProp("tasklane.relay.password", password)
        .sysProp("tasklane.relay.bootstrap-servers", bootstrap)
        .sysProp("tasklane.relay.namespace", namespace)
        .sysProp("tasklane.relay.http-port", "0")
        .logFile(logs.resolve("relay.log"))
        .start();
  }

  JavaProcess scheduler(int httpPort) {
    return JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
        .name("scheduler")
        .classpath(classpath("scheduler-streams"))
        .sysProp("tasklane.scheduler.bootstrap-servers", bootstrap)
        .sysProp("tasklane.scheduler.namespace", namespace)
        .sysProp("tasklane.scheduler.application-id", namespace + "-scheduler")
        .sysProp("tasklane.scheduler.state-dir", logs.resolveSibling("scheduler-state-" + System.currentTimeMillis()).toString())
        .sysProp("tasklane.scheduler.api.tokens", TOKEN + ":operator")
        .sysProp("micronaut.server.port", String.valueOf(httpPort))
        .logFile(logs.resolve("scheduler.log"))
        .start();
  }

  JavaProcess worker() {
    return JavaProcess.builder("io.tasklane.examples.WorkerApp")
        .name("worker")
        .classpath(classpath("examples"))
        .sysProp("datasources.default.url", jdbcUrl)
        .sysProp("datasources.default.username", user)
        .sysProp("datasources.default.password", password)
        .sysProp("tasklane.worker.bootstrap-servers", bootstrap)
        .sysProp("tasklane.worker.namespace", namespace)
        .sysProp("tasklane.worker.concurrency", "8")
        .logFile(logs.resolve("worker.log"))
        .start();
  }

  Path logs() {
    return logs;
  }

  private String classpath(String module) {
    Path dir = home.resolve(module).resolve("target");
    Path file = dir.resolve("app.classpath");
    try {
      return dir.resolve("classes") + ":" + Files.readString(file).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(
          file + " is missing: build first (./mvnw install -DskipTests, which bin/demo does)", e);
    }
  }
}
