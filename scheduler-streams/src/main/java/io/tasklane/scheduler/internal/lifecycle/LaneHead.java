package io.tasklane.scheduler.internal.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The head of one {@link Lane} in the lanes store: the tasks that hold it now (at most its limit),
 * the next place a task joining it takes, and how many tasks wait in it — an upper bound, exact
 * unless a crash lost a waiting entry's deletion: a lane whose range turns out empty is set to
 * zero. Binary: {@code 1 ‖ next place (8) ‖ waiting (4) ‖ holders (2) ‖ per holder: u16 len ‖ id}.
 * Mutable, used on one stream thread.
 */
final class LaneHead {
  private static final byte FORMAT = 1;

  final List<String> holders;
  long nextSeq;
  int waiting;

  LaneHead() {
    this(new ArrayList<>(1), 0, 0);
  }

  private LaneHead(List<String> holders, long nextSeq, int waiting) {
    this.holders = holders;
    this.nextSeq = nextSeq;
    this.waiting = waiting;
  }

  boolean isEmpty() {
    return holders.isEmpty() && waiting <= 0;
  }

  byte[] encode() {
    byte[][] ids = new byte[holders.size()][];
    int size = 1 + 8 + 4 + 2;
    for (int i = 0; i < ids.length; i++) {
      ids[i] = holders.get(i).getBytes(StandardCharsets.UTF_8);
      size += 2 + ids[i].length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(FORMAT).putLong(nextSeq).putInt(waiting).putShort((short) ids.length);
    for (byte[] id : ids) {
      b.putShort((short) id.length).put(id);
    }
    return b.array();
  }

  static LaneHead decode(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    byte format = b.get();
    if (format != FORMAT) {
      throw new IllegalArgumentException("unknown lane head format " + format);
    }
    long next = b.getLong();
    int waiting = b.getInt();
    int n = Short.toUnsignedInt(b.getShort());
    List<String> holders = new ArrayList<>(Math.max(1, n));
    for (int i = 0; i < n; i++) {
      int len = Short.toUnsignedInt(b.getShort());
      holders.add(new String(value, b.position(), len, StandardCharsets.UTF_8));
      b.position(b.position() + len);
    }
    return new LaneHead(holders, next, waiting);
  }
}
