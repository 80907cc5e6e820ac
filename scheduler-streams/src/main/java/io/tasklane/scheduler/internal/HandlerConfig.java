package io.tasklane.scheduler.internal;

import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.scheduler.HandlerDefaults;
import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.SchedulerException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the per-handler settings ({@code handlers.<name>.*}) and the named rate limits ({@code
 * limits.<name>.*}) for {@link ConfigLoader}. Stateless.
 */
final class HandlerConfig {
  static final String P = ConfigLoader.P;
  static final String MAX_PER_KEY = "handlers.*.max-per-key";
  static final String ON_DEAD = "handlers.*.on-dead";
  static final String WEIGHTS = "handlers.*.weights";
  static final String RATE = "handlers.*.rate";
  static final String BURST = "handlers.*.burst";
  static final String LIMIT_RATE = "limits.*.rate";
  static final String LIMIT_BURST = "limits.*.burst";

  private HandlerConfig() {}

  /**
   * {@code handlers.<name>.max-per-key}, {@code .on-dead} and {@code .weights}, by handler name.
   */
  static Map<String, HandlerDefaults> handlers(ConfigSource c) {
    Map<String, HandlerDefaults> out = new TreeMap<>();
    for (String key : c.values().keySet()) {
      String name = ConfigKeys.freeSegment(MAX_PER_KEY, key);
      name = name == null ? ConfigKeys.freeSegment(ON_DEAD, key) : name;
      name = name == null ? ConfigKeys.freeSegment(WEIGHTS, key) : name;
      name = name == null ? ConfigKeys.freeSegment(RATE, key) : name;
      name = name == null ? ConfigKeys.freeSegment(BURST, key) : name;
      if (name == null || out.containsKey(name)) {
        continue;
      }
      String h = "handlers." + name + ".";
      String perKey = h + "max-per-key";
      try {
        Integer limit = c.string(perKey) == null ? null : c.integer(perKey, 0);
        String dead = c.string(h + "on-dead");
        Map<String, Integer> weights = HandlerDefaults.parseWeights(c.string(h + "weights"));
        out.put(
            name,
            new HandlerDefaults(
                limit,
                dead == null ? null : dead.trim().toUpperCase(Locale.ROOT),
                weights,
                rate(c, h)));
      } catch (SchedulerException e) {
        throw new SchedulerException(P + h + e.getMessage(), e);
      }
    }
    return out;
  }

  /** {@code limits.<name>.rate} and {@code .burst}, by limit name. */
  static Map<String, RateLimit> limits(ConfigSource c) {
    Map<String, RateLimit> out = new TreeMap<>();
    for (String key : c.values().keySet()) {
      String name = ConfigKeys.freeSegment(LIMIT_RATE, key);
      name = name == null ? ConfigKeys.freeSegment(LIMIT_BURST, key) : name;
      if (name == null || out.containsKey(name)) {
        continue;
      }
      String l = "limits." + name + ".";
      RateLimit rate;
      try {
        rate = rate(c, l);
      } catch (SchedulerException e) {
        throw new SchedulerException(P + l + e.getMessage(), e);
      }
      if (rate == null) {
        throw new SchedulerException(P + l + "rate: missing (e.g. 50/s); a burst needs a rate");
      }
      out.put(name, rate);
    }
    return out;
  }

  /** {@code <prefix>rate} and {@code <prefix>burst}; null without a rate. */
  private static RateLimit rate(ConfigSource c, String prefix) {
    String rate = c.string(prefix + "rate");
    String burst = c.string(prefix + "burst");
    if (rate == null && burst != null) {
      throw new SchedulerException("burst: needs a rate (e.g. rate: 50/s)");
    }
    return rate == null
        ? null
        : RateLimit.parse(rate, burst == null ? null : c.integer(prefix + "burst", 1));
  }
}
