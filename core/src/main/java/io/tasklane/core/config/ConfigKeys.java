package io.tasklane.core.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings one app knows under its prefix ({@code tasklane.relay.}): plain keys ({@code
 * http-port}), templates with one free segment ({@code handlers.*.timeout}, the segment may hold
 * dots) and pass-through prefixes whose keys are free ({@code kafka.}). Anything else under the
 * prefix is refused at start ({@link #check}). Immutable.
 *
 * <p>Environment variables name a setting by upper-casing its full name and turning {@code .} and
 * {@code -} into {@code _}: {@code TASKLANE_RELAY_HTTP_PORT} is {@code tasklane.relay.http-port}.
 * After a pass-through prefix every {@code _} is a dot ({@code TASKLANE_RELAY_KAFKA_SASL_MECHANISM}
 * is {@code tasklane.relay.kafka.sasl.mechanism}), and so is every {@code _} of a template's free
 * segment ({@code TASKLANE_WORKER_HANDLERS_ORDER_CANCEL_TIMEOUT} is {@code
 * tasklane.worker.handlers.order.cancel.timeout}).
 */
public final class ConfigKeys {
  private final String prefix;
  private final String envPrefix;
  private final Set<String> keys;
  private final List<String> templates;
  private final List<String> passThrough;
  private final Map<String, String> retired;

  private ConfigKeys(
      String prefix,
      Collection<String> keys,
      Collection<String> passThrough,
      Map<String, String> retired) {
    this.prefix = prefix.endsWith(".") ? prefix : prefix + ".";
    this.envPrefix = envName(this.prefix);
    this.keys = new TreeSet<>();
    this.templates = new ArrayList<>();
    for (String k : keys) {
      (k.contains("*") ? templates : this.keys).add(k);
    }
    this.passThrough = List.copyOf(passThrough);
    this.retired = Map.copyOf(retired);
  }

  /**
   * The settings under {@code prefix}.
   *
   * @param keys plain keys and templates ({@code handlers.*.timeout}), without the prefix
   * @param passThrough prefixes of free keys ({@code kafka.}), without the app prefix
   */
  public static ConfigKeys of(
      String prefix, Collection<String> keys, Collection<String> passThrough) {
    return new ConfigKeys(prefix, keys, passThrough, Map.of());
  }

  /**
   * These keys plus retired ones, each refused with its own message (what replaced it), e.g. {@code
   * retention-ms} → {@code "renamed to tasklane.relay.retention, a duration such as 1h"}.
   */
  public ConfigKeys withRetired(Map<String, String> retiredKeys) {
    List<String> all = new ArrayList<>(keys);
    all.addAll(templates);
    return new ConfigKeys(prefix, all, passThrough, retiredKeys);
  }

  /** The prefix, ending with a dot. */
  public String prefix() {
    return prefix;
  }

  /** The prefix of the environment variables, {@code TASKLANE_RELAY_}. */
  public String envPrefix() {
    return envPrefix;
  }

  /** Whether {@code key} (without the prefix) is a setting of this app. */
  public boolean isKnown(String key) {
    if (keys.contains(key) || passThrough.stream().anyMatch(key::startsWith)) {
      return true;
    }
    return templates.stream().anyMatch(t -> templateMatcher(t, key).matches());
  }

  /**
   * Refuses {@code key} (without the prefix) unless it is known, naming it, the nearest known
   * setting, and every known one.
   *
   * @throws ConfigException naming the full key
   */
  public void check(String key) {
    if (isKnown(key)) {
      return;
    }
    if (retired.containsKey(key)) {
      throw new ConfigException(prefix + key, retired.get(key));
    }
    String nearest = nearest(key);
    Set<String> all = new TreeSet<>(keys);
    all.addAll(templates);
    passThrough.forEach(p -> all.add(p + "*"));
    throw new ConfigException(
        prefix + key,
        "unknown setting"
            + (nearest == null ? "" : "; did you mean '" + prefix + nearest + "'?")
            + " (known: "
            + String.join(", ", all)
            + ")");
  }

  /**
   * The key (without the prefix) environment variable {@code envName} sets, or null when it does
   * not start with {@link #envPrefix()}. An unknown name maps to {@code -}-separated words, so the
   * check refuses it by a readable name.
   */
  public String fromEnv(String envName) {
    if (!envName.startsWith(envPrefix)) {
      return null;
    }
    String rest = envName.substring(envPrefix.length()).toLowerCase(Locale.ROOT);
    for (String p : passThrough) {
      String envP = p.replace('.', '_').replace('-', '_');
      if (rest.startsWith(envP)) {
        return p + rest.substring(envP.length()).replace('_', '.');
      }
    }
    for (String k : keys) {
      if (k.replace('.', '_').replace('-', '_').equals(rest)) {
        return k;
      }
    }
    for (String t : templates) {
      int star = t.indexOf('*');
      String head = t.substring(0, star).replace('.', '_').replace('-', '_');
      String tail = t.substring(star + 1).replace('.', '_').replace('-', '_');
      if (rest.startsWith(head)
          && rest.endsWith(tail)
          && rest.length() > head.length() + tail.length()) {
        String free = rest.substring(head.length(), rest.length() - tail.length());
        return t.substring(0, star) + free.replace('_', '.') + t.substring(star + 1);
      }
    }
    return rest.replace('_', '-');
  }

  /** The free segment of {@code key} under {@code template}, or null when it does not match. */
  public static String freeSegment(String template, String key) {
    Matcher m = templateMatcher(template, key);
    return m.matches() ? m.group(1) : null;
  }

  private static Matcher templateMatcher(String template, String key) {
    int star = template.indexOf('*');
    return Pattern.compile(
            Pattern.quote(template.substring(0, star))
                + "(.+)"
                + Pattern.quote(template.substring(star + 1)))
        .matcher(key);
  }

  private String nearest(String key) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    List<String> candidates = new ArrayList<>(keys);
    candidates.addAll(templates);
    for (String k : candidates) {
      int d = distance(key, k);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return bestDistance <= Math.max(3, key.length() / 2) ? best : null;
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static String envName(String property) {
    return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }
}
