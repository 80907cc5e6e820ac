package io.tasklane.scheduler.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the due-index: {@code dueAt} as 8 bytes big-endian, then the task id in UTF-8. RocksDB
 * orders keys bytewise (unsigned), so for non-negative times the index is ordered by due time and a
 * range scan from {@link #FIRST} to {@link #upTo(long)} returns everything due at or before a time.
 */
final class DueIndexKey {
  /** The smallest key: time 0 and no id. */
  static final Bytes FIRST = Bytes.wrap(new byte[8]);

  private DueIndexKey() {}

  static Bytes of(long dueAt, String taskId) {
    byte[] id = taskId.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(
        ByteBuffer.allocate(8 + id.length).putLong(Math.max(0, dueAt)).put(id).array());
  }

  /** The largest key of time {@code t}: ids are UTF-8 and never contain the byte 0xFF. */
  static Bytes upTo(long t) {
    byte[] key = ByteBuffer.allocate(9).putLong(Math.max(0, t)).array();
    key[8] = (byte) 0xFF;
    return Bytes.wrap(key);
  }

  static long dueAt(Bytes key) {
    return ByteBuffer.wrap(key.get(), 0, 8).getLong();
  }

  static String taskId(Bytes key) {
    byte[] k = key.get();
    return new String(Arrays.copyOfRange(k, 8, k.length), StandardCharsets.UTF_8);
  }
}
