package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * The keys and values of the fire log ({@link FireLog}): a fire's key is {@code name ‖ 0x00 ‖
 * fireAt ‖ fireId}, so that one schedule's fires are a range in fire order; its value is the {@link
 * FireRecord} as JSON. Stateless; any thread.
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

  /** The outcome field as the codec writes it: compact, the value a string. */
  private static final byte[] OUTCOME = "\"outcome\":\"".getBytes(StandardCharsets.US_ASCII);

  /**
   * Whether the logged fire {@code bytes} is finished, read from its {@code outcome} alone (a prune
   * looks at every fire of the schedule and needs nothing else): the first {@code "outcome":"} in
   * the bytes is the record's own field, as no nested value has one and a quote inside a string is
   * escaped. The full decode when that field is not found as expected, so that a corrupt record
   * fails as it would there.
   */
  static boolean finished(byte[] bytes) {
    int from = indexOf(bytes, OUTCOME);
    if (from >= 0) {
      from += OUTCOME.length;
      int end = from;
      while (end < bytes.length && bytes[end] != '"') {
        end++;
      }
      if (end < bytes.length) {
        try {
          return FireRecord.Outcome.valueOf(
                  new String(bytes, from, end - from, StandardCharsets.US_ASCII))
              .finished();
        } catch (IllegalArgumentException e) {
          // the full decode below names what is wrong
        }
      }
    }
    return decode(bytes).outcome().finished();
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= bytes.length; i++) {
      for (int k = 0; k < part.length; k++) {
        if (bytes[i + k] != part[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static FireRecord decode(byte[] bytes) {
    try {
      return WireCodec.mapper().readValue(bytes, FireRecord.class);
    } catch (IOException e) {
      throw new WireFormatException("corrupt schedule fire in store: " + e.getMessage(), e);
    }
  }
}
