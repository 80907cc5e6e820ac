package io.tasklane.spring.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The file layer of a Spring app's worker settings: the keys under a prefix from every enumerable
 * property source of the {@code Environment} (application.properties/yml, profiles, test
 * properties...) except the environment variables and the system properties, which the neutral
 * reader ({@code WorkerSettings}) layers above by its one rule. Values are resolved through the
 * environment (placeholders, the highest source winning). Stateless; called once at start-up, on
 * the start-up thread.
 */
final class SpringFileLayer {
  private SpringFileLayer() {}

  /** The values of keys starting with {@code prefix} (e.g. {@code tasklane.worker.}). */
  static Map<String, String> read(ConfigurableEnvironment env, String prefix) {
    List<String> keys = new ArrayList<>();
    for (PropertySource<?> source : env.getPropertySources()) {
      String name = source.getName();
      if (name.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
          || name.equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME)
          || !(source instanceof EnumerablePropertySource<?> enumerable)) {
        continue;
      }
      for (String key : enumerable.getPropertyNames()) {
        if (key.startsWith(prefix) && !keys.contains(key)) {
          keys.add(key);
        }
      }
    }
    Map<String, String> file = new HashMap<>();
    for (String key : keys) {
      String value = env.getProperty(key);
      if (value != null) {
        file.put(key, value);
      }
    }
    return file;
  }
}
