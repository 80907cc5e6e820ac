package io.tasklane.scheduler.internal.ops;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one scheduler instance sees of the relay: when it last admitted a new task from {@code
 * <ns>.tasks} and each admitted task's <em>admission lag</em> — the scheduler's admission time
 * minus the task's {@code createdAt}, the outbox insert. That lag is the relay's hop plus the time
 * the record waited for the scheduler's stream thread, so it is what an operator feels as "the
 * relay is behind". Lags are kept in two windows of {@link #WINDOW_MS}: the current one and the one
 * before, so a read covers the last 30 to 60 seconds. Written by the stream threads (through {@link
 * Alerts#admitted}), read by HTTP threads: thread-safe.
 */
public final class RelayWatch {
  static final long WINDOW_MS = 30_000;

  /** A lag above this (an hour) is recorded as this. */
  private static final long MAX_LAG_MS = 3_600_000L;

  /** This instance's figures, or another instance's decoded from a forwarded read. */
  public record Figures(long lastAdmittedAt, long lastLagMs, long sinceMs, Histogram lags) {
    /** The figures of two instances taken together (latest admission, both windows' lags). */
    public Figures add(Figures o) {
      Histogram h = lags.copy();
      h.add(o.lags);
      boolean mine = lastAdmittedAt >= o.lastAdmittedAt;
      return new Figures(
          mine ? lastAdmittedAt : o.lastAdmittedAt,
          mine ? lastLagMs : o.lastLagMs,
          Math.min(sinceMs, o.sinceMs),
          h);
    }

    public String encodedLags() {
      ByteBuffer b = ByteBuffer.allocate(lags.getNeededByteBufferCapacity());
      int n = lags.encodeIntoCompressedByteBuffer(b);
      return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(b.array(), n));
    }

    public static Histogram decodeLags(String base64) {
      try {
        return Histogram.decodeFromCompressedByteBuffer(
            ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
      } catch (DataFormatException | IllegalArgumentException e) {
        throw new IllegalArgumentException("relay figures: lags are not a histogram", e);
      }
    }
  }

  private final Clock clock;
  private long window = Long.MIN_VALUE;
  private Histogram current = histogram();
  private Histogram previous = histogram();
  private long lastAdmittedAt = -1;
  private long lastLagMs = -1;

  RelayWatch(Clock clock) {
    this.clock = clock;
  }

  private static Histogram histogram() {
    return new Histogram(MAX_LAG_MS, 2);
  }

  /** A new task was admitted {@code lagMs} after its outbox insert (a stream thread). */
  synchronized void admitted(long lagMs) {
    long now = clock.millis();
    roll(now);
    long lag = Math.max(0, Math.min(lagMs, MAX_LAG_MS));
    current.recordValue(lag);
    lastAdmittedAt = now;
    lastLagMs = lag;
  }

  /** The figures now: the last admission and the lags of the last 30 to 60 seconds. */
  public synchronized Figures figures() {
    roll(clock.millis());
    Histogram h = previous.copy();
    h.add(current);
    return new Figures(lastAdmittedAt, lastLagMs, (window - 1) * WINDOW_MS, h);
  }

  private void roll(long now) {
    long w = now / WINDOW_MS;
    if (w == window) {
      return;
    }
    previous = w == window + 1 ? current : histogram();
    current = histogram();
    window = w;
  }
}
