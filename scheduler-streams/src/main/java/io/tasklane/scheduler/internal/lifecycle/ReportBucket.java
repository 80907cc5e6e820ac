package io.tasklane.scheduler.internal.lifecycle;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The figures of one handler in one time bucket: succeeded, failed (attempt failures), dead and
 * cancelled counts, and HdrHistograms (2 significant digits, milliseconds) of run time and
 * lateness. Merged by adding counts and histograms, never by averaging percentiles. Encoded into
 * the report stores and between instances as bytes ({@link #encode}). Not thread-safe: one stream
 * thread, or one HTTP request.
 */
public final class ReportBucket {
  private static final int DIGITS = 2;

  public long succeeded;
  public long failed;
  public long dead;
  public long cancelled;
  final Histogram runTime;
  final Histogram lateness;

  public ReportBucket() {
    this(new Histogram(DIGITS), new Histogram(DIGITS));
  }

  private ReportBucket(Histogram runTime, Histogram lateness) {
    runTime.setAutoResize(true);
    lateness.setAutoResize(true);
    this.runTime = runTime;
    this.lateness = lateness;
  }

  void ran(long ms) {
    runTime.recordValue(Math.max(0, ms));
  }

  void late(long ms) {
    lateness.recordValue(Math.max(0, ms));
  }

  /** Adds {@code other}'s counts and histograms to this one. */
  public ReportBucket add(ReportBucket other) {
    succeeded += other.succeeded;
    failed += other.failed;
    dead += other.dead;
    cancelled += other.cancelled;
    runTime.add(other.runTime);
    lateness.add(other.lateness);
    return this;
  }

  public byte[] encode() {
    ByteBuffer run = compressed(runTime);
    ByteBuffer late = compressed(lateness);
    ByteBuffer b = ByteBuffer.allocate(40 + run.remaining() + late.remaining());
    b.putLong(succeeded).putLong(failed).putLong(dead).putLong(cancelled);
    b.putInt(run.remaining()).put(run).putInt(late.remaining()).put(late);
    return b.array();
  }

  public static ReportBucket decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long s = b.getLong();
    long f = b.getLong();
    long d = b.getLong();
    long c = b.getLong();
    ReportBucket r = new ReportBucket(histogram(b), histogram(b));
    r.succeeded = s;
    r.failed = f;
    r.dead = d;
    r.cancelled = c;
    return r;
  }

  /** Run time p50, p99 and max in ms, or null when nothing ran. */
  public long[] runTimeMs() {
    return figures(runTime);
  }

  /** Lateness p50, p99 and max in ms, or null when nothing was dispatched. */
  public long[] latenessMs() {
    return figures(lateness);
  }

  private static long[] figures(Histogram h) {
    return h.getTotalCount() == 0
        ? null
        : new long[] {h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue()};
  }

  private static ByteBuffer compressed(Histogram h) {
    ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(b);
    return ByteBuffer.wrap(b.array(), 0, length);
  }

  private static Histogram histogram(ByteBuffer b) {
    byte[] part = new byte[b.getInt()]; // a copy: the decoder reads the backing array from 0
    b.get(part);
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(part), 0);
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("report bucket: histogram does not decode", e);
    }
  }
}
