package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.scheduler.internal.lifecycle.CompactBytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;

/**
 * The keys and values of the fire log ({@link FireLog}): a fire's key is {@code name ‖ 0x00 ‖
 * fireAt ‖ fireId}, so that one schedule's fires are a range in fire order; its value is the {@link
 * FireRecord} in a compact binary form ({@link #FORMAT}), or as JSON when an earlier version wrote
 * it. Stateless; any thread.
 */
final class FireLogCodec {
  private FireLogCodec() {}

  static Bytes key(String name, long fireAt, String fireId) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] id = fireId.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(
        ByteBuffer.allocate(n.length + 1 + Long.BYTES + id.length)
            .put(n)
            .put((byte) 0)
            .putLong(fireAt)
            .put(id)
            .array());
  }

  /** The first key a schedule's fires can have: {@code name ‖ 0x00}. */
  static Bytes from(String name) {
    return bound(name, (byte) 0);
  }

  /** Above every key of the schedule's fires, below the next name's: {@code name ‖ 0x01}. */
  static Bytes to(String name) {
    return bound(name, (byte) 1);
  }

  private static Bytes bound(String name, byte last) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] b = java.util.Arrays.copyOf(n, n.length + 1);
    b[n.length] = last;
    return Bytes.wrap(b);
  }

  /**
   * The format byte of a fire's binary value: then its outcome as one byte (so that {@link
   * #finished} reads two bytes), then the other components ({@link #write}).
   */
  static final byte FORMAT = 1;

  /** The first byte of a value of the earlier JSON form (the versions before this format). */
  private static final byte JSON = '{';

  private static final FireRecord.Outcome[] OUTCOMES = FireRecord.Outcome.values();
  private static final FireRecord.Kind[] KINDS = FireRecord.Kind.values();

  /** The stored value of fire {@code f}: {@link #FORMAT}, then {@link #write}. */
  static byte[] encode(FireRecord f) {
    CompactBytes.Writer o = new CompactBytes.Writer(64 + 48 * f.tasks().size());
    o.raw(FORMAT);
    write(o, f);
    return o.toByteArray();
  }

  /**
   * Fire {@code f}'s components: the outcome and the kind as their position in their enum + 1 (0:
   * null; {@code FireLogCodecTest} pins both orders), the task states by name, the rest as {@link
   * CompactBytes} numbers and strings.
   */
  static void write(CompactBytes.Writer o, FireRecord f) {
    o.raw(f.outcome() == null ? 0 : f.outcome().ordinal() + 1);
    o.str(f.fireId());
    o.num(f.fireAt());
    o.raw(f.kind() == null ? 0 : f.kind().ordinal() + 1);
    o.num(f.depth());
    o.str(f.parentFire());
    o.num(f.madeAt());
    o.num(f.latenessMs());
    o.num(f.tasks().size());
    for (FireRecord.FireTask t : f.tasks()) {
      o.str(t.id());
      o.str(t.routingKey());
      o.str(t.state() == null ? null : t.state().name());
    }
    o.str(f.reason());
  }

  /** A fire as {@link #write} wrote it. */
  static FireRecord read(CompactBytes.Reader in) {
    FireRecord.Outcome outcome = code(in.raw(), OUTCOMES);
    String fireId = in.str();
    long fireAt = in.num();
    FireRecord.Kind kind = code(in.raw(), KINDS);
    int depth = in.integer();
    String parent = in.str();
    long madeAt = in.num();
    long lateness = in.num();
    int n = in.count();
    List<FireRecord.FireTask> tasks = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String id = in.str();
      String routingKey = in.str();
      String state = in.str();
      tasks.add(
          new FireRecord.FireTask(id, routingKey, state == null ? null : TaskState.valueOf(state)));
    }
    return new FireRecord(
        fireId, fireAt, kind, depth, parent, madeAt, lateness, tasks, outcome, in.str());
  }

  private static <E> E code(int c, E[] values) {
    if (c == 0) {
      return null;
    }
    if (c > values.length) {
      throw new IllegalStateException("unknown code " + c);
    }
    return values[c - 1];
  }

  /**
   * Whether the logged fire {@code bytes} is finished, from its outcome byte alone (a prune looks
   * at every fire of the schedule and needs nothing else); a value of the JSON form is decoded.
   */
  static boolean finished(byte[] bytes) {
    if (bytes.length > 1 && bytes[0] == FORMAT) {
      int c = bytes[1] & 0xFF;
      if (c > 0 && c <= OUTCOMES.length) {
        return OUTCOMES[c - 1].finished();
      }
    }
    return decode(bytes).outcome().finished();
  }

  /**
   * A stored fire: {@link #FORMAT}, or the JSON form of earlier versions (first byte {@code '{'});
   * anything else, or a value that runs short or long, is a {@link WireFormatException}.
   */
  static FireRecord decode(byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == JSON) {
      try {
        return WireCodec.mapper().readValue(bytes, FireRecord.class);
      } catch (IOException e) {
        throw new WireFormatException("corrupt schedule fire in store: " + e.getMessage(), e);
      }
    }
    if (bytes.length == 0 || bytes[0] != FORMAT) {
      throw new WireFormatException(
          "corrupt schedule fire in store: unknown format "
              + (bytes.length == 0 ? "(empty)" : String.valueOf(bytes[0])));
    }
    try {
      CompactBytes.Reader in = new CompactBytes.Reader(bytes, 1);
      FireRecord f = read(in);
      if (!in.atEnd()) {
        throw new IllegalStateException("bytes left after the fire");
      }
      return f;
    } catch (RuntimeException e) {
      throw new WireFormatException("corrupt schedule fire in store: " + e.getMessage(), e);
    }
  }
}
