package io.tasklane.core;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A dispatch's priority as a Kafka record header ({@link ReservedHeaders#DISPATCH_PRIORITY}): the
 * scheduler writes it on a dispatch whose task has a priority other than the default, so that a
 * worker can order the dispatches it holds without decoding them first (docs/priorities.md, <i>In
 * the worker</i>). Stateless; any thread.
 */
public final class DispatchPriority {
  private static final byte[][] VALUES = new byte[TaskOptions.MAX_PRIORITY + 1][];

  static {
    for (int p = 0; p < VALUES.length; p++) {
      VALUES[p] = new byte[] {(byte) ('0' + p)};
    }
  }

  private DispatchPriority() {}

  /** The header's value for {@code task}, or null when its priority is the default. */
  public static byte[] headerValue(TaskEnvelope task) {
    int p = task.options().priorityOrDefault();
    return p == TaskOptions.DEFAULT_PRIORITY || p < 0 || p >= VALUES.length ? null : VALUES[p];
  }

  /**
   * The priority {@code headers} carry, or {@link TaskOptions#DEFAULT_PRIORITY} when none (or a
   * value that is not one digit 0–9: the header is a hint, never a reason to refuse a dispatch).
   */
  public static int of(Headers headers) {
    Header h = headers == null ? null : headers.lastHeader(ReservedHeaders.DISPATCH_PRIORITY);
    byte[] v = h == null ? null : h.value();
    if (v == null || v.length != 1 || v[0] < '0' || v[0] > '0' + TaskOptions.MAX_PRIORITY) {
      return TaskOptions.DEFAULT_PRIORITY;
    }
    return v[0] - '0';
  }
}
