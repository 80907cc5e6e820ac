package io.tasklane.scheduler.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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

  /**
   * Whether the logged fire {@code bytes} is finished, read from its {@code outcome} alone (a prune
   * looks at every fire of the schedule and needs nothing else); the full decode when that field is
   * not found as expected, so that a corrupt record fails as it would there.
   */
  static boolean finished(byte[] bytes) {
    try (JsonParser p = WireCodec.mapper().getFactory().createParser(bytes)) {
      if (p.nextToken() == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken value = p.nextToken();
          if ("outcome".equals(field) && value == JsonToken.VALUE_STRING) {
            return FireRecord.Outcome.valueOf(p.getText()).finished();
          }
          p.skipChildren();
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      // the full decode below names what is wrong
    }
    return decode(bytes).outcome().finished();
  }

  static FireRecord decode(byte[] bytes) {
    try {
      return WireCodec.mapper().readValue(bytes, FireRecord.class);
    } catch (IOException e) {
      throw new WireFormatException("corrupt schedule fire in store: " + e.getMessage(), e);
    }
  }
}
