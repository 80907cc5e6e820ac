package io.tasklane.core;

import java.util.regex.Pattern;

/** The rule for handler names: {@code [a-z0-9][a-z0-9._-]{0,99}}. */
public final class HandlerNames {
  /** The pattern a handler name must match. */
  public static final Pattern PATTERN = Pattern.compile("[a-z0-9][a-z0-9._-]{0,99}");

  private HandlerNames() {}

  public static boolean isValid(String handler) {
    return handler != null && PATTERN.matcher(handler).matches();
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
