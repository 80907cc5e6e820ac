package io.tasklane.bench.internal;

import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.Secrets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Launch recipes of the relay, a scheduler and the bench worker, each on its own module's runtime
 * classpath ({@code <module>/target/classes} + {@code <module>/target/app.classpath}), like {@code
 * TasklaneApps} of the examples. Logs go to {@code <runDir>/logs/<name>.log}.
 */
public record Apps(
    Path home,
    Path runDir,
    String jdbcUrl,
    String user,
    String password,
    String bootstrap,
    String namespace,
    boolean jfr) {

  /**
   * The operator token every launched scheduler accepts (named {@code operator}): random per JVM,
   * as {@code openssl rand -base64 32} makes one; the scheduler refuses guessable tokens.
   */
  public static final String TOKEN = Secrets.token();

  /** What the launched scheduler instances send each other on forwarded status reads. */
  static final String INTER_INSTANCE_TOKEN = Secrets.token();

  public JavaProcess.Builder relay(String name) {
    return withJfr(name, JavaProcess.builder("io.tasklane.relay.RelayApp"))
        .name(name)
        .classpath(classpath("cdc-relay"))
        .jvmArg("-Xmx512m")
        .sysProp("tasklane.relay.jdbc-url", jdbcUrl)
        .sysProp("tasklane.relay.username", user)
        .sysProp("tasklane.relay.password", password)
        .sysProp("tasklane.relay.bootstrap-servers", bootstrap)
        .sysProp("tasklane.relay.namespace", namespace)
        .sysProp("tasklane.relay.http-port", "0")
        .logFile(logs().resolve(name + ".log"));
  }

  /**
   * A scheduler instance with one standby replica per store (used only when a second instance runs)
   * and a 6 s session timeout, so that a killed instance is noticed quickly.
   */
  public JavaProcess.Builder scheduler(String name, int httpPort) {
    return withJfr(name, JavaProcess.builder("io.tasklane.scheduler.SchedulerApp"))
        .name(name)
        .classpath(classpath("scheduler-streams"))
        .jvmArg("-Xmx512m")
        .sysProp("tasklane.scheduler.bootstrap-servers", bootstrap)
        .sysProp("tasklane.scheduler.namespace", namespace)
        .sysProp("tasklane.scheduler.application-id", namespace + "-scheduler")
        .sysProp("tasklane.scheduler.state-dir", runDir.resolve("state-" + name).toString())
        .sysProp("tasklane.scheduler.api.tokens", "operator:" + TOKEN + ":operator")
        .sysProp("tasklane.scheduler.inter-instance-token", INTER_INSTANCE_TOKEN)
        .sysProp("tasklane.scheduler.num-standby-replicas", "1")
        .sysProp("tasklane.scheduler.kafka.session.timeout.ms", "6000")
        .sysProp("tasklane.scheduler.kafka.heartbeat.interval.ms", "1500")
        .sysProp("micronaut.server.port", String.valueOf(httpPort))
        .logFile(logs().resolve(name + ".log"));
  }

  /** The no-op worker ({@code io.tasklane.bench.BenchWorkerApp}), no idempotency store. */
  public JavaProcess.Builder worker(String name) {
    return withJfr(name, JavaProcess.builder("io.tasklane.bench.BenchWorkerApp"))
        .name(name)
        .classpath(classpath("bench"))
        .jvmArg("-Xmx384m")
        .sysProp("tasklane.worker.bootstrap-servers", bootstrap)
        .sysProp("tasklane.worker.namespace", namespace)
        .sysProp("tasklane.worker.concurrency", "4")
        .sysProp("tasklane.worker.handlers.noop.max-in-flight", "512")
        .sysProp("tasklane.worker.idempotency.enabled", "false")
        .sysProp("tasklane.worker.method-calls.enabled", "false")
        .logFile(logs().resolve(name + ".log"));
  }

  public Path logs() {
    return runDir.resolve("logs");
  }

  /** Where the JFR recording of app {@code name} goes when {@link #jfr()} is on. */
  public Path jfrFile(String name) {
    return runDir.resolve(name + ".jfr");
  }

  private JavaProcess.Builder withJfr(String name, JavaProcess.Builder b) {
    return jfr
        ? b.jvmArg(
            "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfrFile(name))
        : b;
  }

  private String classpath(String module) {
    Path dir = home.resolve(module).resolve("target");
    Path file = dir.resolve("app.classpath");
    try {
      return dir.resolve("classes") + ":" + Files.readString(file).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(file + " is missing: build first (bin/bench does)", e);
    }
  }
}
