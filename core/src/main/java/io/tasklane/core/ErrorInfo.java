package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * An error as shown in the console and stored with a dead task.
 *
 * @param type exception class name or a short code such as {@code timeout}
 * @param message the message, at most {@link #MAX_MESSAGE_CHARS} characters
 * @param stack the stack trace, truncated to {@link #MAX_STACK_CHARS} characters, may be null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorInfo(String type, String message, String stack) {
  public static final int MAX_MESSAGE_CHARS = 2_000;
  public static final int MAX_STACK_CHARS = 8_000;

  public ErrorInfo {
    message = truncate(message, MAX_MESSAGE_CHARS);
    stack = truncate(stack, MAX_STACK_CHARS);
  }

  public static ErrorInfo of(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return new ErrorInfo(t.getClass().getName(), String.valueOf(t.getMessage()), out.toString());
  }

  static String truncate(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max - 15) + "...[truncated]";
  }
}
