package io.tasklane.outbox.internal;

import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.outbox.AsyncOutsideTransaction;
import io.tasklane.outbox.OutboxConfig;
import io.tasklane.outbox.OutboxException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads {@code tasklane.outbox.*} for a framework adapter that has no binder of its own (the Spring
 * Boot starter), by the worker's rule: environment variables over system properties over the
 * application's configuration files over the defaults; unknown keys are refused (naming the key and
 * the closest known one), values are validated by {@link OutboxConfig}. Immutable; read once at
 * start-up.
 *
 * @param config the outbox's settings
 * @param asyncOutsideTransaction what an {@code @OutboxAsync} call outside a transaction does
 * @param flywayEnabled whether Tasklane's own Flyway migrations run at start-up ({@code
 *     tasklane.outbox.flyway.enabled}, Spring Boot only)
 */
public record OutboxSettings(
    OutboxConfig config, AsyncOutsideTransaction asyncOutsideTransaction, boolean flywayEnabled) {
  /** The prefix of the outbox's settings. */
  public static final String PREFIX = "tasklane.outbox";

  /** Every setting of the outbox. */
  static final ConfigKeys KEYS =
      ConfigKeys.of(
          PREFIX + ".",
          List.of(
              "max-payload-bytes",
              "default-max-attempts",
              "default-timeout",
              "traceparent",
              "batch-rows",
              "async-outside-transaction",
              "flyway.enabled"),
          List.of());

  /**
   * Settings layered by the one rule, {@code env} over {@code system} over {@code file} (full
   * property names) over the defaults.
   *
   * @throws OutboxException naming the unknown key or the invalid value and its limits
   */
  public static OutboxSettings of(
      Map<String, String> file, Properties system, Map<String, String> env) {
    try {
      ConfigSource source = ConfigSource.layer(KEYS, file, system, env);
      Duration timeout = source.duration("default-timeout");
      AsyncOutsideTransaction outside =
          source.enumValue("async-outside-transaction", AsyncOutsideTransaction.class);
      return new OutboxSettings(
          new OutboxConfig(
              source.integer("max-payload-bytes", OutboxConfig.DEFAULT_MAX_PAYLOAD_BYTES),
              source.integer("default-max-attempts", OutboxConfig.DEFAULT_MAX_ATTEMPTS),
              timeout == null ? OutboxConfig.DEFAULT_TIMEOUT : timeout,
              source.bool("traceparent", OutboxConfig.DEFAULT_TRACEPARENT),
              source.integer("batch-rows", OutboxConfig.DEFAULT_BATCH_ROWS)),
          outside == null ? AsyncOutsideTransaction.REFUSE : outside,
          source.bool("flyway.enabled", false));
    } catch (ConfigException e) {
      throw new OutboxException(e.getMessage(), e);
    }
  }
}
