package io.tasklane.harness;

import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.Secrets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Launch recipes of Tasklane's apps, each on its own module's runtime classpath ({@code
 * <module>/target/classes} or the module's jar, + {@code <module>/target/app.classpath}, written by
 * the build), with a class-data-sharing archive when it runs on the jar ({@link ClassArchive}).
 * Each method returns a {@link JavaProcess.Builder} with the connection settings filled in; add
 * more with {@code sysProp(..)} (the last {@code -D} of a key wins) and call {@code start()}. Logs
 * go to {@code <runDir>/logs/<name>.log}. Made with {@link #builder()}; immutable.
 */
public final class TasklaneApps {

  /**
   * The operator token every launched scheduler accepts (named {@code operator}): random per JVM,
   * as {@code openssl rand -base64 32} makes one; the scheduler refuses guessable tokens.
   */
  public static final String TOKEN = Secrets.token();

  private static final String SCHEDULER_PREFIX = "tasklane.scheduler.";

  private static final Pattern SETTING_KEY = Pattern.compile("[a-z][a-z0-9.-]*");

  /** What the launched scheduler instances send each other on forwarded status reads. */
  static final String INTER_INSTANCE_TOKEN = Secrets.token();

  private final Path home;
  private final Path runDir;
  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final String bootstrap;
  private final String namespace;
  private final boolean jfr;
  private final List<String> jvmArgs;
  private final Map<String, String> schedulerSettings;

  private TasklaneApps(Builder b) {
    this.home = Objects.requireNonNull(b.home, "TasklaneApps.home must be set");
    this.runDir = Objects.requireNonNull(b.runDir, "TasklaneApps.runDir must be set");
    this.jdbcUrl = Objects.requireNonNull(b.jdbcUrl, "TasklaneApps.jdbcUrl must be set");
    this.user = Objects.requireNonNull(b.user, "TasklaneApps.user must be set");
    this.password = Objects.requireNonNull(b.password, "TasklaneApps.password must be set");
    this.bootstrap = Objects.requireNonNull(b.bootstrap, "TasklaneApps.bootstrap must be set");
    this.namespace = Objects.requireNonNull(b.namespace, "TasklaneApps.namespace must be set");
    this.jfr = b.jfr;
    this.jvmArgs = List.copyOf(b.jvmArgs);
    this.schedulerSettings = Map.copyOf(b.schedulerSettings);
  }

  /** Starts describing the apps of one run. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A relay ({@code connector=postgresql} for a PostgreSQL URL, else {@code auto}); several relays
   * on one database elect one leader.
   */
  public JavaProcess.Builder relay(String name) {
    return app(name, "io.tasklane.relay.RelayApp", "cdc-relay")
        .sysProp("tasklane.relay.jdbc-url", jdbcUrl)
        .sysProp("tasklane.relay.connector", DatabaseKind.relayConnector(jdbcUrl))
        .sysProp("tasklane.relay.username", user)
        .sysProp("tasklane.relay.password", password)
        .sysProp("tasklane.relay.bootstrap-servers", bootstrap)
        .sysProp("tasklane.relay.namespace", namespace)
        .sysProp("tasklane.relay.http-port", "0");
  }

  /**
   * A scheduler instance; instances with the same namespace share the work. It runs with glibc's
   * {@code MALLOC_ARENA_MAX=2}, as its distribution script and image do (docs/operations.md), and
   * with the {@link Builder#schedulerSettings} (settings a caller adds later win over them).
   */
  public JavaProcess.Builder scheduler(String name, int httpPort) {
    JavaProcess.Builder b = app(name, "io.tasklane.scheduler.SchedulerApp", "scheduler-streams");
    new TreeMap<>(schedulerSettings).forEach((k, v) -> b.sysProp(SCHEDULER_PREFIX + k, v));
    return b.sysProp("tasklane.scheduler.bootstrap-servers", bootstrap)
        .sysProp("tasklane.scheduler.namespace", namespace)
        .sysProp("tasklane.scheduler.application-id", namespace + "-scheduler")
        .sysProp("tasklane.scheduler.state-dir", runDir.resolve("state-" + name).toString())
        .sysProp("tasklane.scheduler.api.tokens", "operator:" + TOKEN + ":operator")
        .sysProp("tasklane.scheduler.inter-instance-token", INTER_INSTANCE_TOKEN)
        .sysProp("micronaut.server.port", String.valueOf(httpPort))
        .env("MALLOC_ARENA_MAX", "2");
  }

  /**
   * A worker app ({@code mainClass} of {@code module}) with the broker and namespace set; the app's
   * own settings (data source, handlers) are the caller's.
   */
  public JavaProcess.Builder worker(String name, String mainClass, String module) {
    return app(name, mainClass, module)
        .sysProp("tasklane.worker.bootstrap-servers", bootstrap)
        .sysProp("tasklane.worker.namespace", namespace);
  }

  /** Any app: {@code mainClass} on {@code module}'s classpath, its log under {@link #logs()}. */
  public JavaProcess.Builder app(String name, String mainClass, String module) {
    ClassArchive.Launch launch = ClassArchive.of(home, module, mainClass, dependencies(module));
    JavaProcess.Builder b =
        JavaProcess.builder(mainClass)
            .name(name)
            .classpath(launch.classpath())
            .logFile(logs().resolve(name + ".log"));
    launch.jvmArgs().forEach(b::jvmArg);
    jvmArgs.forEach(b::jvmArg);
    return jfr
        ? b.jvmArg(
            "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfrFile(name))
        : b;
  }

  /** Where the apps' logs go. */
  public Path logs() {
    return runDir.resolve("logs");
  }

  /** Where the JFR recording of app {@code name} goes when JFR is on. */
  public Path jfrFile(String name) {
    return runDir.resolve(name + ".jfr");
  }

  /** The database of the outbox and the handlers' effects. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** Database user (has the CDC grants the relay needs). */
  public String user() {
    return user;
  }

  /** Database password. */
  public String password() {
    return password;
  }

  /** Kafka bootstrap servers. */
  public String bootstrap() {
    return bootstrap;
  }

  /** Topic namespace. */
  public String namespace() {
    return namespace;
  }

  private String dependencies(String module) {
    Path file = home.resolve(module).resolve("target").resolve("app.classpath");
    try {
      return Files.readString(file).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(
          file
              + " is missing: build first (./mvnw install -DskipTests, which bin/demo, bin/bench"
              + " and bin/chaos do)",
          e);
    }
  }

  /**
   * Checks settings given for every scheduler by key after {@code tasklane.scheduler.}.
   *
   * @throws IllegalArgumentException naming a key that is not a setting's name ({@code [a-z0-9.-]},
   *     starting with a letter) or that carries the prefix
   */
  public static void checkSchedulerSettings(Map<String, String> settings) {
    for (Map.Entry<String, String> e : settings.entrySet()) {
      if (!SETTING_KEY.matcher(e.getKey()).matches() || e.getKey().startsWith("tasklane.")) {
        throw new IllegalArgumentException(
            "scheduler setting '"
                + e.getKey()
                + "' is not a setting name: a letter, then [a-z0-9.-], without the prefix "
                + SCHEDULER_PREFIX);
      }
      Objects.requireNonNull(e.getValue(), "value of scheduler setting " + e.getKey());
    }
  }

  /** The settings every scheduler gets: {@code tasklane.scheduler.<key>} (docs/operations.md). */
  public Map<String, String> schedulerSettings() {
    return schedulerSettings;
  }

  /**
   * Collects the settings of a {@link TasklaneApps}; every one but {@link #jfr}, {@link #jvmArgs}
   * and {@link #schedulerSettings} is required.
   */
  public static final class Builder {
    private Path home;
    private Path runDir;
    private String jdbcUrl;
    private String user;
    private String password;
    private String bootstrap;
    private String namespace;
    private boolean jfr;
    private List<String> jvmArgs = List.of();
    private Map<String, String> schedulerSettings = Map.of();

    private Builder() {}

    /** The Tasklane checkout (where the modules' {@code target} directories are). */
    public Builder home(Path value) {
      this.home = value;
      return this;
    }

    /** A directory of this run: logs, scheduler state and JFR files live under it. */
    public Builder runDir(Path value) {
      this.runDir = value;
      return this;
    }

    /** Database URL, user and password of the outbox and the handlers' effects. */
    public Builder database(String url, String userName, String userPassword) {
      this.jdbcUrl = url;
      this.user = userName;
      this.password = userPassword;
      return this;
    }

    /** The database {@code url} on {@code stack}, with its user and broker. */
    public Builder stack(LocalStack stack, String url) {
      return database(url, stack.username(), stack.password()).bootstrap(stack.bootstrapServers());
    }

    /** Kafka bootstrap servers. */
    public Builder bootstrap(String value) {
      this.bootstrap = value;
      return this;
    }

    /** Topic namespace. */
    public Builder namespace(String value) {
      this.namespace = value;
      return this;
    }

    /** JVM options of every app (e.g. JIT flags), before the app's own. */
    public Builder jvmArgs(List<String> value) {
      this.jvmArgs = List.copyOf(value);
      return this;
    }

    /** Record every app with JFR ({@code settings=profile}) into the run directory. */
    public Builder jfr(boolean value) {
      this.jfr = value;
      return this;
    }

    /**
     * Settings of every scheduler, by key after {@code tasklane.scheduler.} ({@code
     * commit-interval}, {@code kafka.num.stream.threads}, …).
     *
     * @throws IllegalArgumentException naming a key that is not a setting's name ({@code
     *     [a-z0-9.-]}, starting with a letter) or that carries the prefix
     */
    public Builder schedulerSettings(Map<String, String> value) {
      checkSchedulerSettings(value);
      this.schedulerSettings = Map.copyOf(value);
      return this;
    }

    /** The recipes; throws if a required setting is missing. */
    public TasklaneApps build() {
      return new TasklaneApps(this);
    }
  }
}
