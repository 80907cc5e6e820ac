package io.tasklane.examples.launch;

import io.tasklane.examples.orders.LateHandlers;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.Secrets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Launch recipes of Tasklane's apps, each on its own module's runtime classpath ({@code
 * <module>/target/classes} + {@code <module>/target/app.classpath}, written by the build). Each
 * method returns a {@link JavaProcess.Builder} with the connection settings filled in; add more
 * with {@code sysProp(..)} and call {@code start()}. Logs go to {@code <runDir>/logs/<name>.log}.
 *
 * @param home the Tasklane checkout (where the modules' {@code target} directories are)
 * @param runDir a directory of this run: logs and scheduler state live under it
 * @param jdbcUrl the database of the outbox and the handlers' effects
 * @param user database user (needs the CDC grants for the relay)
 * @param password database password
 * @param bootstrap Kafka bootstrap servers
 * @param namespace topic namespace
 */
public record TasklaneApps(
    Path home,
    Path runDir,
    String jdbcUrl,
    String user,
    String password,
    String bootstrap,
    String namespace) {

  /**
   * The operator token every launched scheduler accepts (named {@code operator}): random per JVM,
   * as {@code openssl rand -base64 32} makes one; the scheduler refuses guessable tokens.
   */
  public static final String TOKEN = Secrets.token();

  /** What the launched scheduler instances send each other on forwarded status reads. */
  static final String INTER_INSTANCE_TOKEN = Secrets.token();

  /** A relay; several relays on one database elect one leader. */
  public JavaProcess.Builder relay(String name) {
    return JavaProcess.builder("io.tasklane.relay.RelayApp")
        .name(name)
        .classpath(classpath("cdc-relay"))
        .sysProp("tasklane.relay.jdbc-url", jdbcUrl)
        .sysProp("tasklane.relay.username", user)
        .sysProp("tasklane.relay.password", password)
        .sysProp("tasklane.relay.bootstrap-servers", bootstrap)
        .sysProp("tasklane.relay.namespace", namespace)
        .sysProp("tasklane.relay.http-port", "0")
        .logFile(logs().resolve(name + ".log"));
  }

  /** A scheduler instance; instances with the same namespace share the work. */
  public JavaProcess.Builder scheduler(String name, int httpPort) {
    return JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
        .name(name)
        .classpath(classpath("scheduler-streams"))
        .sysProp("tasklane.scheduler.bootstrap-servers", bootstrap)
        .sysProp("tasklane.scheduler.namespace", namespace)
        .sysProp("tasklane.scheduler.application-id", namespace + "-scheduler")
        .sysProp("tasklane.scheduler.state-dir", runDir.resolve("state-" + name).toString())
        .sysProp("tasklane.scheduler.api.tokens", "operator:" + TOKEN + ":operator")
        .sysProp("tasklane.scheduler.inter-instance-token", INTER_INSTANCE_TOKEN)
        .sysProp("micronaut.server.port", String.valueOf(httpPort))
        .logFile(logs().resolve(name + ".log"));
  }

  /** The example worker; {@code late} adds the handler that is deployed late. */
  public JavaProcess.Builder worker(String name, boolean late) {
    return JavaProcess.builder("io.tasklane.examples.WorkerApp")
        .name(name)
        .classpath(classpath("examples"))
        .sysProp(LateHandlers.ENABLED, String.valueOf(late))
        .sysProp("datasources.default.url", jdbcUrl)
        .sysProp("datasources.default.username", user)
        .sysProp("datasources.default.password", password)
        .sysProp("tasklane.worker.bootstrap-servers", bootstrap)
        .sysProp("tasklane.worker.namespace", namespace)
        .sysProp("tasklane.worker.concurrency", "8")
        .logFile(logs().resolve(name + ".log"));
  }

  public Path logs() {
    return runDir.resolve("logs");
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
