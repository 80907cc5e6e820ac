package io.tasklane.core;

import java.util.Map;
import java.util.Optional;

/**
 * How many members of a batch there are and how many are in each terminal state: what a batch's
 * callback task carries in its {@link ReservedHeaders#BATCH_COUNTS} header ({@code
 * BatchCounts.from(ctx.headers())} in a handler) and what the batch status shows. Immutable.
 *
 * @param batch the batch's id
 * @param total members added before the seal
 * @param succeeded members SUCCEEDED
 * @param dead members DEAD
 * @param cancelled members CANCELLED
 */
public record BatchCounts(String batch, long total, long succeeded, long dead, long cancelled) {

  /** Members not yet terminal. */
  public long pending() {
    return Math.max(0, total - succeeded - dead - cancelled);
  }

  /** The header text: {@code total=10,succeeded=8,dead=1,cancelled=1}. */
  public String format() {
    return "total="
        + total
        + ",succeeded="
        + succeeded
        + ",dead="
        + dead
        + ",cancelled="
        + cancelled;
  }

  /**
   * The counts a batch callback task carries, read from its task headers; empty for a task that is
   * no batch's callback (or whose header does not parse).
   */
  public static Optional<BatchCounts> from(Map<String, String> headers) {
    String batch = headers == null ? null : headers.get(ReservedHeaders.BATCH_CALLBACK);
    String text = batch == null ? null : headers.get(ReservedHeaders.BATCH_COUNTS);
    if (text == null) {
      return Optional.empty();
    }
    long[] n = new long[4];
    String[] names = {"total", "succeeded", "dead", "cancelled"};
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      for (int i = 0; eq > 0 && i < names.length; i++) {
        if (names[i].equals(pair.substring(0, eq).trim())) {
          try {
            n[i] = Long.parseLong(pair.substring(eq + 1).trim());
          } catch (NumberFormatException e) {
            return Optional.empty();
          }
        }
      }
    }
    return Optional.of(new BatchCounts(batch, n[0], n[1], n[2], n[3]));
  }
}
