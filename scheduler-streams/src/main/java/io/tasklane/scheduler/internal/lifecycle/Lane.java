package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskEnvelope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * One lane: the tasks of one handler and one key (docs/lanes.md). An <em>ordered</em> lane (the
 * task's {@code orderingKey}) lets one task at a time hold it, from its first dispatch until it is
 * terminal (a retry keeps it; a DEAD task keeps it under {@link LanePolicy#BLOCK}); a
 * <em>keyed</em> lane (the options' {@code concurrencyKey}) lets up to the handler's {@code
 * max-per-key} tasks hold it, each for one attempt. Waiting tasks take their turn in the order they
 * joined the lane. Every task of a lane is routed by its key, so a lane lives in one stream task.
 *
 * <p>Keys in the lanes store ({@link Stores#LANES}), each part length-prefixed so that a key may
 * hold any character: a head {@code kind ‖ u16 len ‖ handler ‖ u16 len ‖ key} ({@link LaneHead}),
 * and a waiting task {@code kind+0x10 ‖ u16 len ‖ handler ‖ u16 len ‖ key ‖ seq (8 bytes
 * big-endian) ‖ task id} (empty value), so one lane's waiting tasks are one range in the order they
 * joined. Immutable.
 */
record Lane(String handler, String key, boolean ordered) {
  static final byte HEAD_ORDERED = 0x10;
  static final byte HEAD_KEYED = 0x11;
  static final byte WAIT_ORDERED = 0x20;
  static final byte WAIT_KEYED = 0x21;

  /** The first and last possible head keys: every head is in between. */
  static final Bytes HEADS_FIRST = Bytes.wrap(new byte[] {HEAD_ORDERED});

  static final Bytes HEADS_LAST = Bytes.wrap(new byte[] {HEAD_KEYED + 1});

  /** The lane of {@code task}, or null when it has neither an ordering nor a concurrency key. */
  static Lane of(TaskEnvelope task) {
    if (task == null) {
      return null;
    }
    if (task.orderingKey() != null) {
      return new Lane(task.handler(), task.orderingKey(), true);
    }
    String k = task.options().concurrencyKey();
    return k == null ? null : new Lane(task.handler(), k, false);
  }

  /** The lane of {@code r}'s task, or null. */
  static Lane of(TaskRecord r) {
    return r == null ? null : of(r.task());
  }

  Bytes headKey() {
    return Bytes.wrap(prefix(ordered ? HEAD_ORDERED : HEAD_KEYED, 0).array());
  }

  /** The key of a task waiting in this lane at place {@code seq}. */
  Bytes waitKey(long seq, String id) {
    byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = prefix(ordered ? WAIT_ORDERED : WAIT_KEYED, 8 + idBytes.length);
    b.putLong(seq).put(idBytes);
    return Bytes.wrap(b.array());
  }

  /** The first possible waiting key of this lane. */
  Bytes waitFirst() {
    return Bytes.wrap(prefix(ordered ? WAIT_ORDERED : WAIT_KEYED, 8).putLong(0).array());
  }

  /** The last possible waiting key of this lane (a place is never negative). */
  Bytes waitLast() {
    ByteBuffer b = prefix(ordered ? WAIT_ORDERED : WAIT_KEYED, 9);
    for (int i = 0; i < 9; i++) {
      b.put((byte) 0xFF);
    }
    return Bytes.wrap(b.array());
  }

  /** The lane a head key names. */
  static Lane ofHead(Bytes headKey) {
    ByteBuffer b = ByteBuffer.wrap(headKey.get());
    byte kind = b.get();
    String handler = string(b);
    String key = string(b);
    return new Lane(handler, key, kind == HEAD_ORDERED);
  }

  /** The place of a waiting key of this lane. */
  long seqOf(Bytes waitKey) {
    ByteBuffer b = ByteBuffer.wrap(waitKey.get());
    b.position(prefixLength());
    return b.getLong();
  }

  /** The task id of a waiting key of this lane. */
  String idOf(Bytes waitKey) {
    int from = prefixLength() + 8;
    byte[] k = waitKey.get();
    return new String(k, from, k.length - from, StandardCharsets.UTF_8);
  }

  private int prefixLength() {
    return 1
        + 2
        + handler.getBytes(StandardCharsets.UTF_8).length
        + 2
        + key.getBytes(StandardCharsets.UTF_8).length;
  }

  private ByteBuffer prefix(byte kind, int extra) {
    byte[] h = handler.getBytes(StandardCharsets.UTF_8);
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(1 + 2 + h.length + 2 + k.length + extra);
    b.put(kind).putShort((short) h.length).put(h).putShort((short) k.length).put(k);
    return b;
  }

  private static String string(ByteBuffer b) {
    int n = Short.toUnsignedInt(b.getShort());
    String s = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
    b.position(b.position() + n);
    return s;
  }

  /** For logs and the API: {@code handler/key}. */
  @Override
  public String toString() {
    return handler + "/" + key;
  }
}
