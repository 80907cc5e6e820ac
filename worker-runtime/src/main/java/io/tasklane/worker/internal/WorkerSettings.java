package io.tasklane.worker.internal;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.naming.conventions.StringConvention;
import io.micronaut.core.value.PropertyResolver;
import io.tasklane.core.Topics;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import jakarta.inject.Singleton;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads {@code tasklane.worker.*} into the validated config records. */
@Singleton
@Internal
public final class WorkerSettings {
  private static final String P = WorkerConfig.PREFIX + ".";

  private final PropertyResolver env;
  private final WorkerConfig config;

  WorkerSettings(PropertyResolver env) {
    this.env = env;
    String namespace = env.get(P + "namespace", String.class).orElse(Topics.DEFAULT_NAMESPACE);
    Map<String, String> kafka = new HashMap<>();
    env.getProperties(P + "kafka", StringConvention.RAW)
        .forEach((k, v) -> kafka.put(k, String.valueOf(v)));
    this.config =
        new WorkerConfig(
            new Topics(namespace),
            env.get(P + "bootstrap-servers", String.class)
                .or(() -> env.get("kafka.bootstrap.servers", String.class))
                .orElse(null),
            env.get(P + "group-id", String.class).orElse(namespace + "-worker"),
            env.get(P + "name", String.class).orElseGet(WorkerSettings::defaultName),
            env.get(P + "concurrency", Integer.class).orElse(WorkerConfig.DEFAULT_CONCURRENCY),
            env.get(P + "handler-partitions", Integer.class)
                .orElse(WorkerConfig.DEFAULT_HANDLER_PARTITIONS),
            env.get(P + "shutdown-grace", Duration.class)
                .orElse(WorkerConfig.DEFAULT_SHUTDOWN_GRACE),
            env.get(P + "log-bytes-per-attempt", Integer.class)
                .orElse(WorkerConfig.DEFAULT_LOG_BYTES_PER_ATTEMPT),
            methodCalls(env.get(P + "method-calls.enabled", String.class).orElse("auto")),
            kafka);
  }

  public WorkerConfig config() {
    return config;
  }

  /** The settings of {@code handler}, defaults from {@link #config()}. */
  public HandlerConfig handler(String handler) {
    String h = P + "handlers." + handler + ".";
    HandlerConfig d = HandlerConfig.defaults(config);
    int concurrency = env.get(h + "concurrency", Integer.class).orElse(d.concurrency());
    try {
      return new HandlerConfig(
          env.get(h + "enabled", Boolean.class).orElse(true),
          concurrency,
          env.get(h + "max-in-flight", Integer.class).orElse(2 * concurrency),
          env.get(h + "timeout", Duration.class).orElse(null),
          env.get(h + "partitions", Integer.class).orElse(d.partitions()));
    } catch (WorkerException e) {
      throw new WorkerException(h + e.getMessage(), e);
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

  private static String defaultName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      host = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("worker");
    }
    return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
  }
}
