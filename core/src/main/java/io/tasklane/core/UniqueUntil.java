package io.tasklane.core;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * When a task's unique window ends before its length has passed (the outbox library's {@code
 * TaskRequest.unique(window, until)}): the scheduler announces the task's end on {@code
 * <ns>.unique-releases} ({@link UniqueRelease}) and the relay deletes the window's row, so the next
 * enqueue of the key creates a new task. The window's length stays the upper bound: an end that is
 * never announced (the relay away for longer than the window) frees the key when the window passes.
 * Immutable.
 */
public enum UniqueUntil {
  /**
   * Until the task succeeds: while it waits, runs or is retried, and after it went DEAD or was
   * cancelled, the key stays taken for the window's length (Sidekiq Enterprise's default).
   */
  SUCCESS("success"),

  /**
   * Until the task ends, succeeded, DEAD or cancelled: "unique while pending or running" (Oban's
   * and River's unique states).
   */
  END("end");

  private final String wireName;

  UniqueUntil(String wireName) {
    this.wireName = wireName;
  }

  /** The option's value on the wire ({@link TaskOptions#uniqueUntil()}). */
  public String wireName() {
    return wireName;
  }

  /** Whether a task that reached {@code state} ends its window. */
  public boolean releasedBy(TaskState state) {
    return switch (this) {
      case SUCCESS -> state == TaskState.SUCCEEDED;
      case END ->
          state == TaskState.SUCCEEDED || state == TaskState.DEAD || state == TaskState.CANCELLED;
    };
  }

  /** The value of {@code wireName}, or null when this reader does not know it. */
  public static UniqueUntil ofWireName(String wireName) {
    for (UniqueUntil u : values()) {
      if (u.wireName.equals(wireName)) {
        return u;
      }
    }
    return null;
  }

  /** What is wrong with {@code wireName} as the option's value, or null. */
  static String problem(String wireName) {
    return ofWireName(wireName) != null
        ? null
        : "must be one of "
            + Arrays.stream(values()).map(UniqueUntil::wireName).collect(Collectors.joining(", "))
            + " (is \""
            + wireName
            + "\")";
  }
}
