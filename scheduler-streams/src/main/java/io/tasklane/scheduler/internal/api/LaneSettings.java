package io.tasklane.scheduler.internal.api;

import io.tasklane.core.HandlerSetting;

/**
 * The parameters of {@code POST /api/handlers/{name}/lanes} ({@link HandlerController}): {@code
 * maxPerKey} (1 to {@link HandlerSetting#MAX_PER_KEY}; {@code none}: no limit, whatever the
 * configuration says; {@code default}: the configured {@code handlers.<name>.max-per-key}) and
 * {@code onDead} ({@code BLOCK}, {@code SKIP} or {@code default}); a parameter left out keeps its
 * value. Stateless.
 */
final class LaneSettings {
  private LaneSettings() {}

  /** What is wrong with the parameters, naming the first wrong one, or null. */
  static String problem(String maxPerKey, String onDead) {
    if (maxPerKey == null && onDead == null) {
      return "maxPerKey or onDead: give at least one";
    }
    if (maxPerKey != null && !isWord(maxPerKey)) {
      int n;
      try {
        n = Integer.parseInt(maxPerKey.trim());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > HandlerSetting.MAX_PER_KEY) {
        return "maxPerKey: '"
            + maxPerKey
            + "' must be an integer from 1 to "
            + HandlerSetting.MAX_PER_KEY
            + ", none (no limit) or default (the configured limit)";
      }
    }
    if (onDead != null && !HandlerSetting.ON_DEAD.contains(onDead) && !"default".equals(onDead)) {
      return "onDead: '" + onDead + "' must be BLOCK, SKIP or default (the configured policy)";
    }
    return null;
  }

  /** {@code s} with the parameters applied (checked by {@link #problem} first). */
  static HandlerSetting apply(
      HandlerSetting s, String maxPerKey, String onDead, long at, String actor) {
    Integer limit = s.maxPerKey();
    if (maxPerKey != null) {
      limit =
          switch (maxPerKey.trim()) {
            case "none" -> HandlerSetting.NO_LIMIT;
            case "default" -> null;
            default -> Integer.valueOf(maxPerKey.trim());
          };
    }
    String dead = onDead == null ? s.onDead() : "default".equals(onDead) ? null : onDead;
    return s.withLanes(limit, dead, at, actor);
  }

  private static boolean isWord(String maxPerKey) {
    return maxPerKey.trim().equals("none") || maxPerKey.trim().equals("default");
  }

  /** The audit action's suffix: {@code lanes:maxPerKey=3,onDead=SKIP}. */
  static String action(String maxPerKey, String onDead) {
    return "lanes:"
        + (maxPerKey == null ? "" : "maxPerKey=" + maxPerKey.trim())
        + (maxPerKey != null && onDead != null ? "," : "")
        + (onDead == null ? "" : "onDead=" + onDead);
  }
}
