package io.tasklane.core.config;

import io.micronaut.context.env.Environment;
import io.micronaut.context.env.EnvironmentPropertySource;
import io.micronaut.context.env.PropertySource;
import io.micronaut.context.env.SystemPropertiesPropertySource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The file layer of a Micronaut app's settings (the scheduler's, the worker's): the values under a
 * prefix from every Micronaut property source except the environment and the system properties,
 * which {@link ConfigSource} layers above by the one rule; placeholders resolved, lists joined with
 * commas. Micronaut is an optional dependency of tasklane-core, declared by the apps that use this
 * class. Stateless; called once at start-up.
 */
public final class MicronautFileLayer {
  private MicronautFileLayer() {}

  /** The values of keys starting with {@code prefix} (e.g. {@code tasklane.worker.}). */
  public static Map<String, String> read(Environment env, String prefix) {
    Map<String, String> file = new HashMap<>();
    List<PropertySource> sources = new ArrayList<>(env.getPropertySources());
    sources.sort((a, b) -> Integer.compare(a.getOrder(), b.getOrder())); // higher order wins
    for (PropertySource source : sources) {
      if (source.getName().equals(EnvironmentPropertySource.NAME)
          || source.getName().equals(SystemPropertiesPropertySource.NAME)) {
        continue;
      }
      for (String key : source) {
        if (key.startsWith(prefix)) {
          file.put(key, value(env, key, source.get(key)));
        }
      }
    }
    return file;
  }

  private static String value(Environment env, String key, Object raw) {
    if (raw instanceof Collection<?> list) {
      return list.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
    String s = String.valueOf(raw);
    return s.contains("${") ? env.getProperty(key, String.class).orElse(s) : s;
  }
}
