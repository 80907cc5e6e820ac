package io.tasklane.core;

import java.util.regex.Pattern;

/** The rule for handler names: {@code [a-z0-9][a-z0-9._-]{0,99}}. */
public final class HandlerNames {
  /** The pattern a handler name must match. */
  public static final Pattern PATTERN = Pattern.compile("[a-z0-9][a-z0-9._-]{0,99}");

  private HandlerNames() {}

  /**
   * Whether {@code handler} matches {@link #PATTERN} (checked without a regex: it runs per task).
   */
  public static boolean isValid(String handler) {
    if (handler == null || handler.isEmpty() || handler.length() > 100) {
      return false;
    }
    for (int i = 0; i < handler.length(); i++) {
      char c = handler.charAt(i);
      boolean alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
        return false;
      }
    }
    return true;
  }

  /** Returns {@code handler} or throws an {@link InvalidTaskException} naming the rule. */
  public static String check(String handler) {
    if (!isValid(handler)) {
      throw new InvalidTaskException(
          "handler",
          (handler == null ? "is missing" : "'" + abbreviate(handler) + "' is invalid")
              + "; it must match "
              + PATTERN.pattern()
              + " (lower-case, 1 to 100 characters)");
    }
    return handler;
  }

  static String abbreviate(String s) {
    return s.length() <= 120 ? s : s.substring(0, 117) + "...";
  }
}
