package io.tasklane.worker.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.WireFormatException;

/**
 * How long a dispatch sent ahead of its instant ({@code notBefore}, a schedule fire) is still held
 * on this worker: until {@code notBefore} by the worker's clock, but never longer than {@code
 * notBefore − dispatchedAt} after its receipt, so that a worker clock behind the scheduler's does
 * not delay the fire (one ahead of it starts the fire early by the skew: keep the clocks in sync,
 * as for any scheduler). Pure; called on pool threads.
 */
final class DispatchHold {
  /**
   * The longest a dispatch may be sent ahead ({@code notBefore − dispatchedAt}, both on the
   * scheduler's clock): twice the largest {@code schedule-lead} (60 s).
   */
  static final long MAX_AHEAD_MS = 120_000;

  private DispatchHold() {}

  /**
   * Milliseconds still to wait (0 or less: start now), as of {@code now}, for {@code d} received at
   * {@code receivedAt} (both worker clock).
   *
   * @throws WireFormatException naming {@code notBefore} and the limit when it lies more than
   *     {@link #MAX_AHEAD_MS} after {@code dispatchedAt}, so that a forged record cannot hold a
   *     slot for ever
   */
  static long remaining(Dispatch d, long now, long receivedAt) {
    Long notBefore = d.notBefore();
    long ahead = notBefore == null ? 0 : notBefore - d.dispatchedAt();
    if (ahead <= 0) {
      return 0;
    }
    if (ahead > MAX_AHEAD_MS) {
      throw new WireFormatException(
          "dispatch notBefore is "
              + ahead
              + " ms after its dispatchedAt, more than the "
              + MAX_AHEAD_MS
              + " ms a worker holds a dispatch (schedule-lead is at most 60 s)");
    }
    return Math.min(notBefore - now, ahead - (now - receivedAt));
  }
}
