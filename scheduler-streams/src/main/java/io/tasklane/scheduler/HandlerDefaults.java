package io.tasklane.scheduler;

import io.tasklane.core.HandlerNames;
import io.tasklane.core.HandlerSetting;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configured lane settings of one handler, {@code tasklane.scheduler.handlers.<name>.*}: what
 * the scheduler enforces for the handler until an operator changes it at run time ({@code POST
 * /api/handlers/{name}/lanes}, kept on {@code <ns>.handler-settings}); an operator's value wins,
 * and {@code maxPerKey=default} goes back to this one. Immutable.
 *
 * @param maxPerKey {@code max-per-key}: the most tasks of one concurrency key running at once,
 *     across every worker, 1 to {@link HandlerSetting#MAX_PER_KEY}; null: no limit
 * @param onDead {@code on-dead}: what a DEAD task does to its ordered lane, {@code BLOCK} or {@code
 *     SKIP}; null: {@code BLOCK}
 * @param weights {@code weights}: turns per round for the lanes whose key starts with a prefix, by
 *     prefix ({@code "gold-=4,silver-=2"}), each 1 to {@link #MAX_WEIGHT}; the longest matching
 *     prefix counts, a key no prefix matches takes 1 turn; empty: every lane takes 1
 * @param rate {@code rate} and {@code burst}: the rate limit of the handler's tasks that name no
 *     limit of their own ({@link RateLimit}, docs/rate-limits.md); null: none
 */
public record HandlerDefaults(
    Integer maxPerKey, String onDead, Map<String, Integer> weights, RateLimit rate) {
  /** No limit per key, DEAD tasks block their lane, one turn per lane. */
  public static final HandlerDefaults NONE = new HandlerDefaults(null, null);

  /** The most turns per round of one lane. */
  public static final int MAX_WEIGHT = 100;

  /** Lane settings without weights. */
  public HandlerDefaults(Integer maxPerKey, String onDead) {
    this(maxPerKey, onDead, Map.of());
  }

  /** Lane settings without a rate limit. */
  public HandlerDefaults(Integer maxPerKey, String onDead, Map<String, Integer> weights) {
    this(maxPerKey, onDead, weights, null);
  }

  public HandlerDefaults {
    weights = weights == null ? Map.of() : Map.copyOf(weights);
    weights.forEach(
        (prefix, w) -> {
          if (prefix.isEmpty() || w == null || w < 1 || w > MAX_WEIGHT) {
            throw new SchedulerException(
                "weights: '"
                    + prefix
                    + "="
                    + w
                    + "' needs a key prefix and a weight from 1 to "
                    + MAX_WEIGHT);
          }
        });
    if (maxPerKey != null && (maxPerKey < 1 || maxPerKey > HandlerSetting.MAX_PER_KEY)) {
      throw new SchedulerException(
          "max-per-key: "
              + maxPerKey
              + " must be from 1 to "
              + HandlerSetting.MAX_PER_KEY
              + " (leave it out for no limit)");
    }
    if (onDead != null && !HandlerSetting.ON_DEAD.contains(onDead)) {
      throw new SchedulerException("on-dead: '" + onDead + "' must be BLOCK or SKIP");
    }
  }

  /**
   * The turns per round of the lane of {@code key}: the weight of the longest prefix of it, else 1.
   */
  public int weight(String key) {
    int best = -1;
    int weight = 1;
    for (Map.Entry<String, Integer> e : weights.entrySet()) {
      if (key.startsWith(e.getKey()) && e.getKey().length() > best) {
        best = e.getKey().length();
        weight = e.getValue();
      }
    }
    return weight;
  }

  /**
   * Parses {@code weights}: {@code prefix=weight} pairs separated by commas; null or blank: none.
   */
  public static Map<String, Integer> parseWeights(String weights) {
    Map<String, Integer> out = new TreeMap<>();
    if (weights == null || weights.isBlank()) {
      return out;
    }
    for (String pair : weights.split(",")) {
      int eq = pair.lastIndexOf('=');
      String prefix = eq < 0 ? "" : pair.substring(0, eq).trim();
      String n = eq < 0 ? "" : pair.substring(eq + 1).trim();
      int w;
      try {
        w = Integer.parseInt(n);
      } catch (NumberFormatException e) {
        w = -1;
      }
      if (prefix.isEmpty() || w < 1 || w > MAX_WEIGHT || out.containsKey(prefix)) {
        throw new SchedulerException(
            "weights: '"
                + pair.trim()
                + "' must be prefix=weight, a prefix once, the weight from 1 to "
                + MAX_WEIGHT
                + " (e.g. gold-=4,silver-=2)");
      }
      out.put(prefix, w);
    }
    return out;
  }

  /** {@code handlers} checked (valid handler names) and copied; null: none. */
  static Map<String, HandlerDefaults> checked(Map<String, HandlerDefaults> handlers) {
    if (handlers == null) {
      return Map.of();
    }
    Map<String, HandlerDefaults> copy = new TreeMap<>();
    handlers.forEach(
        (name, d) -> {
          if (!HandlerNames.isValid(name)) {
            throw new SchedulerException(
                SchedulerConfig.PREFIX
                    + ".handlers."
                    + name
                    + ": not a handler name; it must match "
                    + HandlerNames.PATTERN.pattern());
          }
          copy.put(name, d == null ? NONE : d);
        });
    return Map.copyOf(copy);
  }

  /** {@code limits} checked (valid limit names) and copied; null: none. */
  static Map<String, RateLimit> checkedLimits(Map<String, RateLimit> limits) {
    if (limits == null) {
      return Map.of();
    }
    limits.forEach(
        (name, l) -> {
          if (!HandlerNames.isValid(name) || l == null) {
            throw new SchedulerException(
                SchedulerConfig.PREFIX
                    + ".limits."
                    + name
                    + ": a limit needs a name that matches "
                    + HandlerNames.PATTERN.pattern()
                    + " and a rate");
          }
        });
    return Map.copyOf(limits);
  }
}
