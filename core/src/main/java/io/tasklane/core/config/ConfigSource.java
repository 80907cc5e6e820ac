package io.tasklane.core.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One app's settings, layered with the one precedence rule of every Tasklane app: environment
 * variable, then JVM system property, then the file, then the default (the first that sets a key
 * wins). Only keys under the app's prefix are read; each one must be known ({@link
 * ConfigKeys#check}), so a typo fails the start naming the key. Values are trimmed; a blank value
 * counts as unset. Immutable.
 *
 * <p>The environment is passed in as a map ({@code System.getenv()} in production), so tests can
 * give their own.
 */
public final class ConfigSource {
  /** Where a value came from. */
  public enum Layer {
    FILE,
    SYSTEM_PROPERTY,
    ENVIRONMENT
  }

  private final ConfigKeys keys;
  private final Map<String, String> values;
  private final Map<String, Layer> origins;

  private ConfigSource(ConfigKeys keys, Map<String, String> values, Map<String, Layer> origins) {
    this.keys = keys;
    this.values = Collections.unmodifiableMap(values);
    this.origins = Collections.unmodifiableMap(origins);
  }

  /**
   * Layers the three sources; keys outside {@code keys.prefix()} are ignored.
   *
   * @param file full property names to values (the app's file; may be empty)
   * @param system the JVM system properties
   * @param env the environment variables
   * @throws ConfigException naming the first unknown key under the prefix
   */
  public static ConfigSource layer(
      ConfigKeys keys, Map<String, String> file, Properties system, Map<String, String> env) {
    Map<String, String> values = new TreeMap<>();
    Map<String, Layer> origins = new HashMap<>();
    file.forEach((k, v) -> put(keys, values, origins, k, v, Layer.FILE));
    for (String k : system.stringPropertyNames()) {
      put(keys, values, origins, k, system.getProperty(k), Layer.SYSTEM_PROPERTY);
    }
    env.forEach(
        (name, v) -> {
          String key = keys.fromEnv(name);
          if (key != null) {
            put(keys, values, origins, keys.prefix() + key, v, Layer.ENVIRONMENT);
          }
        });
    values.keySet().forEach(keys::check);
    return new ConfigSource(keys, values, origins);
  }

  /** Settings from a single map of full property names (no layering), checked the same way. */
  public static ConfigSource of(ConfigKeys keys, Map<String, String> properties) {
    return layer(keys, properties, new Properties(), Map.of());
  }

  private static void put(
      ConfigKeys keys,
      Map<String, String> values,
      Map<String, Layer> origins,
      String fullKey,
      String value,
      Layer layer) {
    if (!fullKey.startsWith(keys.prefix()) || value == null) {
      return;
    }
    String key = fullKey.substring(keys.prefix().length());
    String v = value.trim();
    if (v.isEmpty()) {
      return; // blank: unset, a lower layer or the default applies
    }
    values.put(key, v);
    origins.put(key, layer);
  }

  /** The known keys of this source. */
  public ConfigKeys keys() {
    return keys;
  }

  /** Every set key (without the prefix) and its value. */
  public Map<String, String> values() {
    return values;
  }

  /** The layer {@code key} came from, or null when it is unset. */
  public Layer origin(String key) {
    return origins.get(key);
  }

  /** The value of {@code key}, or null when it is unset. */
  public String string(String key) {
    return values.get(key);
  }

  /** The value of {@code key} as a whole number ({@code _} allowed), or {@code dflt}. */
  public long number(String key, long dflt) {
    String v = values.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new ConfigException(full(key), "'" + v + "' is not a number");
    }
  }

  /** {@link #number} as an int; refuses values outside the int range. */
  public int integer(String key, int dflt) {
    long n = number(key, dflt);
    if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
      throw new ConfigException(full(key), n + " is not a number of the int range");
    }
    return (int) n;
  }

  /** The value of {@code key} as a {@link Durations duration}, or null when it is unset. */
  public Duration duration(String key) {
    String v = values.get(key);
    return v == null ? null : Durations.parse(full(key), v);
  }

  /** The value of {@code key} as {@code true} or {@code false}, or {@code dflt}. */
  public boolean bool(String key, boolean dflt) {
    String v = values.get(key);
    if (v == null) {
      return dflt;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ConfigException(full(key), "'" + v + "' must be true or false");
    };
  }

  /**
   * The value of {@code key} as a constant of {@code type} (case and {@code -}/{@code _} ignored),
   * or null when it is unset.
   *
   * @throws ConfigException naming the allowed values
   */
  public <E extends Enum<E>> E enumValue(String key, Class<E> type) {
    String v = values.get(key);
    return v == null ? null : Enums.parse(full(key), v, type);
  }

  /** The keys under pass-through {@code prefix} ({@code kafka.}) with the prefix removed. */
  public Map<String, String> passThrough(String prefix) {
    return values.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .collect(
            Collectors.toMap(
                e -> e.getKey().substring(prefix.length()),
                Map.Entry::getValue,
                (a, b) -> b,
                TreeMap::new));
  }

  /** The full property name of {@code key}. */
  public String full(String key) {
    return keys.prefix() + key;
  }

  /** Enum parsing with messages naming the allowed values. */
  public static final class Enums {
    private Enums() {}

    /** {@code value} as a constant of {@code type}; {@code key} names the setting in errors. */
    public static <E extends Enum<E>> E parse(String key, String value, Class<E> type) {
      String norm = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
      for (E e : type.getEnumConstants()) {
        if (e.name().equals(norm)) {
          return e;
        }
      }
      throw new ConfigException(key, "'" + value + "' must be one of " + allowed(type));
    }

    /** The constants of {@code type} as settings write them: {@code at_least_once, ...}. */
    public static String allowed(Class<? extends Enum<?>> type) {
      return Arrays.stream(type.getEnumConstants())
          .map(e -> e.name().toLowerCase(Locale.ROOT))
          .collect(Collectors.joining(", "));
    }
  }
}
