package io.tasklane.core;

import java.nio.charset.StandardCharsets;

/**
 * Untrusted text (record keys, handler names, ids read from Kafka or an outbox row) made safe for
 * one log line: CR, LF and tab become {@code \r}, {@code \n}, {@code \t}, a backslash {@code \\},
 * every other control or line/paragraph separator character {@code \}{@code uXXXX}, and text longer
 * than {@link #MAX_CHARS} is cut with a note of how much was left out. So a key holding {@code
 * "\r\nFAKE LOG LINE"} stays on its own line. Stateless, thread-safe.
 */
public final class LogText {
  /** The longest text kept, in characters; the rest is replaced by {@code …(+N chars)}. */
  public static final int MAX_CHARS = 200;

  private LogText() {}

  /** {@code value} escaped for a log line; "null" for null; a byte array read as UTF-8. */
  public static String escape(Object value) {
    return escape(value, MAX_CHARS);
  }

  /** {@link #escape(Object)} keeping up to {@code maxChars} characters (an error message). */
  public static String escape(Object value, int maxChars) {
    if (value == null) {
      return "null";
    }
    String s =
        value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(value);
    int end = Math.min(s.length(), Math.max(1, maxChars));
    StringBuilder out = new StringBuilder(end + 16);
    for (int i = 0; i < end; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\r' -> out.append("\\r");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    if (s.length() > end) {
      out.append("…(+").append(s.length() - end).append(" chars)");
    }
    return out.toString();
  }
}
