package io.tasklane.relay;

import io.tasklane.core.config.ConfigSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Layers the relay's configuration sources by the rule of every Tasklane app: environment variables
 * ({@code TASKLANE_RELAY_*}) win over JVM system properties ({@code tasklane.relay.*}), which win
 * over the properties file ({@code --config file}), which wins over the defaults
 * (docs/operations.md, Configuration).
 *
 * <p>Environment names are the property names upper-cased with {@code .} and {@code -} turned into
 * {@code _}: {@code TASKLANE_RELAY_JDBC_URL}. Pass-through keys keep their dots: {@code
 * TASKLANE_RELAY_KAFKA_SASL_JAAS_CONFIG} is {@code tasklane.relay.kafka.sasl.jaas.config} (every
 * {@code _} after the prefix becomes a dot). Stateless; call from the start-up thread.
 */
public final class RelayConfigLoader {
  private RelayConfigLoader() {}

  /** Parses {@code --config FILE} from {@code args}, then layers system properties and env. */
  public static RelayConfig load(String[] args) {
    Path file = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        file = Path.of(args[++i]);
      } else if (args[i].startsWith("--config=")) {
        file = Path.of(args[i].substring("--config=".length()));
      } else {
        throw new InvalidRelayConfigException(
            "args", "unknown argument '" + args[i] + "'; usage: RelayApp [--config file]");
      }
    }
    return load(file, System.getProperties(), System.getenv());
  }

  /** Layers {@code env} over {@code system} over {@code file} (may be null) over the defaults. */
  public static RelayConfig load(Path file, Properties system, Map<String, String> env) {
    Map<String, String> fromFile = new HashMap<>();
    if (file != null) {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(file)) {
        p.load(in);
      } catch (IOException e) {
        throw new InvalidRelayConfigException(
            "--config", "cannot read " + file + ": " + e.getMessage());
      }
      p.stringPropertyNames().forEach(k -> fromFile.put(fileKey(file, k), p.getProperty(k)));
    }
    return RelayConfigParser.parse(
        () -> ConfigSource.layer(RelayConfigParser.KEYS, fromFile, system, env));
  }

  /** The property an environment variable sets, or null when it is not a relay variable. */
  static String envToProperty(String envName) {
    String key = RelayConfigParser.KEYS.fromEnv(envName);
    return key == null ? null : RelayConfig.PREFIX + key;
  }

  /**
   * A key of the {@code --config} file: every key there is a relay setting, so a key without the
   * prefix (a bare {@code jdbc-url}) is a mistake that would otherwise be ignored silently.
   */
  private static String fileKey(Path file, String key) {
    if (key.startsWith(RelayConfig.PREFIX)) {
      return key;
    }
    throw new InvalidRelayConfigException(
        key,
        "not a relay setting in "
            + file
            + ": keys there start with '"
            + RelayConfig.PREFIX
            + "' (did you mean '"
            + RelayConfig.PREFIX
            + key
            + "'?)");
  }
}
