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
 */
public record HandlerDefaults(Integer maxPerKey, String onDead) {
  /** No limit per key, DEAD tasks block their lane. */
  public static final HandlerDefaults NONE = new HandlerDefaults(null, null);

  public HandlerDefaults {
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
}
