package io.tasklane.worker.internal;

import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Reads {@code tasklane.worker.*} into the validated config records: environment variables, then
 * system properties, then the application's configuration files (as the framework adapter reads
 * them, e.g. Micronaut's application.yml and its other property sources), then the defaults.
 * Unknown keys are refused. Immutable; any thread.
 */
public final class WorkerSettings {
  private static final String P = WorkerConfig.PREFIX + ".";

  /** Every setting of the worker. */
  static final ConfigKeys KEYS =
      ConfigKeys.of(
          P,
          List.of(
              "enabled",
              "namespace",
              "bootstrap-servers",
              "group-id",
              "name",
              "concurrency",
              "handler-partitions",
              "shutdown-grace",
              "log-bytes-per-attempt",
              "method-calls.enabled",
              "idempotency.enabled",
              "idempotency.create-table",
              "recurring.app",
              "recurring.build",
              "heartbeat-interval",
              "session-timeout",
              TopicReplication.FACTOR_KEY,
              TopicReplication.MIN_ISR_KEY,
              TopicReplication.ALLOW_UNSAFE_KEY,
              "handlers.*.enabled",
              "handlers.*.concurrency",
              "handlers.*.max-in-flight",
              "handlers.*.timeout",
              "handlers.*.partitions"),
          List.of("kafka."));

  private final ConfigSource source;
  private final WorkerConfig config;

  private WorkerSettings(
      Map<String, String> file,
      Properties system,
      Map<String, String> env,
      String fallbackBootstrap) {
    try {
      this.source = ConfigSource.layer(KEYS, file, system, env);
      String bootstrap = source.string("bootstrap-servers");
      String namespace = source.string("namespace");
      Duration grace = source.duration("shutdown-grace");
      Duration heartbeat = source.duration("heartbeat-interval");
      Duration session = source.duration("session-timeout");
      String methodCalls = source.string("method-calls.enabled");
      this.config =
          WorkerConfig.builder()
              .topics(new Topics(namespace == null ? Topics.DEFAULT_NAMESPACE : namespace))
              .bootstrapServers(bootstrap == null ? fallbackBootstrap : bootstrap)
              .groupId(source.string("group-id"))
              .workerName(source.string("name"))
              .concurrency(source.integer("concurrency", WorkerConfig.DEFAULT_CONCURRENCY))
              .handlerPartitions(
                  source.integer("handler-partitions", WorkerConfig.DEFAULT_HANDLER_PARTITIONS))
              .shutdownGrace(grace == null ? WorkerConfig.DEFAULT_SHUTDOWN_GRACE : grace)
              .logBytesPerAttempt(
                  source.integer(
                      "log-bytes-per-attempt", WorkerConfig.DEFAULT_LOG_BYTES_PER_ATTEMPT))
              .methodCalls(methodCalls(methodCalls == null ? "auto" : methodCalls))
              .kafka(source.passThrough("kafka."))
              .recurringApp(source.string("recurring.app"))
              .recurringBuild(source.number("recurring.build", 0))
              .heartbeatInterval(
                  heartbeat == null ? WorkerConfig.DEFAULT_HEARTBEAT_INTERVAL : heartbeat)
              .sessionTimeout(session == null ? WorkerConfig.DEFAULT_SESSION_TIMEOUT : session)
              .replication(TopicReplication.read(source))
              .build();
    } catch (ConfigException e) {
      throw new WorkerException(e.getMessage(), e);
    }
  }

  /**
   * Settings layered by the one rule, {@code env} over {@code system} over {@code file} (full
   * property names) over the defaults.
   */
  public static WorkerSettings of(
      Map<String, String> file, Properties system, Map<String, String> env) {
    return new WorkerSettings(file, system, env, null);
  }

  /**
   * As {@link #of(Map, Properties, Map)}, with {@code fallbackBootstrap} (e.g. micronaut-kafka's
   * {@code kafka.bootstrap.servers}, may be null) when no layer sets {@code bootstrap-servers}.
   */
  public static WorkerSettings of(
      Map<String, String> file,
      Properties system,
      Map<String, String> env,
      String fallbackBootstrap) {
    return new WorkerSettings(file, system, env, fallbackBootstrap);
  }

  public WorkerConfig config() {
    return config;
  }

  /** The settings of {@code handler}, defaults from {@link #config()}. */
  public HandlerConfig handler(String handler) {
    String h = "handlers." + handler + ".";
    try {
      var b = HandlerConfig.builder(config).enabled(source.bool(h + "enabled", true));
      b.concurrency(source.integer(h + "concurrency", config.concurrency()));
      if (source.string(h + "max-in-flight") != null) {
        b.maxInFlight(source.integer(h + "max-in-flight", 0));
      }
      return b.timeout(source.duration(h + "timeout"))
          .partitions(source.integer(h + "partitions", config.handlerPartitions()))
          .build();
    } catch (ConfigException e) {
      throw new WorkerException(e.getMessage(), e);
    } catch (WorkerException e) {
      throw new WorkerException(P + h + e.getMessage(), e);
    }
  }

  private static WorkerConfig.MethodCalls methodCalls(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto" -> WorkerConfig.MethodCalls.AUTO;
      case "true" -> WorkerConfig.MethodCalls.ENABLED;
      case "false" -> WorkerConfig.MethodCalls.DISABLED;
      default ->
          throw new WorkerException(
              P + "method-calls.enabled must be auto, true or false, was '" + value + "'");
    };
  }
}
