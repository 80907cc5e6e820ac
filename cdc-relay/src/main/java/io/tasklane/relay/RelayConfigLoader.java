package io.tasklane.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Layers the relay's configuration sources, lowest first: a properties file ({@code --config
 * file}), JVM system properties {@code tasklane.relay.*}, environment variables {@code
 * TASKLANE_RELAY_*}. The environment wins.
 *
 * <p>Environment names are the property names upper-cased with {@code .} and {@code -} turned into
 * {@code _}: {@code TASKLANE_RELAY_JDBC_URL}. Pass-through keys keep their dots: {@code
 * TASKLANE_RELAY_KAFKA_SASL_JAAS_CONFIG} is {@code tasklane.relay.kafka.sasl.jaas.config} (every
 * {@code _} after the prefix becomes a dot). Stateless; call from the start-up thread.
 */
public final class RelayConfigLoader {
  private static final String ENV_PREFIX = "TASKLANE_RELAY_";

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

  /** Layers {@code file} (may be null), {@code system} and {@code env}; the environment wins. */
  public static RelayConfig load(Path file, Properties system, Map<String, String> env) {
    Map<String, String> merged = new HashMap<>();
    if (file != null) {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(file)) {
        p.load(in);
      } catch (IOException e) {
        throw new InvalidRelayConfigException(
            "--config", "cannot read " + file + ": " + e.getMessage());
      }
      p.stringPropertyNames().forEach(k -> merged.put(fileKey(file, k), p.getProperty(k)));
    }
    system.stringPropertyNames().forEach(k -> put(merged, k, system.getProperty(k)));
    env.forEach(
        (k, v) -> {
          String key = envToProperty(k);
          if (key != null) {
            merged.put(key, v);
          }
        });
    return RelayConfig.fromProperties(merged);
  }

  /** The property an environment variable sets, or null when it is not a relay variable. */
  static String envToProperty(String envName) {
    if (!envName.startsWith(ENV_PREFIX)) {
      return null;
    }
    String rest = envName.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
    for (String passThrough : new String[] {"kafka_", "debezium_"}) {
      if (rest.startsWith(passThrough)) {
        return RelayConfig.PREFIX
            + passThrough.substring(0, passThrough.length() - 1)
            + "."
            + rest.substring(passThrough.length()).replace('_', '.');
      }
    }
    for (String key : RelayConfigParser.KEYS) {
      if (key.replace('-', '_').equals(rest)) {
        return RelayConfig.PREFIX + key;
      }
    }
    return RelayConfig.PREFIX + rest.replace('_', '-'); // unknown: refused by the parser
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

  private static void put(Map<String, String> merged, String key, String value) {
    if (key.startsWith(RelayConfig.PREFIX)) {
      merged.put(key, value);
    }
  }
}
