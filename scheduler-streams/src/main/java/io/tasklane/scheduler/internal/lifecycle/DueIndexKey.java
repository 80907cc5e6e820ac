package io.tasklane.scheduler.internal.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the due-index: {@code dueAt} as 8 bytes big-endian, then the task id in UTF-8. RocksDB
 * orders keys bytewise (unsigned), so for non-negative times the index is ordered by due time and a
 * range scan from {@link #FIRST} to {@link #upTo(long)} returns everything due at or before a time.
 *
 * <p>Queued tasks ({@link TimerKind#QUEUED}) live in the same store under {@code 0xFF ‖ handler ‖
 * 0x00 ‖ dueAt ‖ id}: the first byte of a non-negative {@code dueAt} is at most 0x7F, so these keys
 * sort after every timer and a due scan never reaches them, while one handler's queue is a range in
 * due order.
 */
public final class DueIndexKey {
  /** The smallest key: time 0 and no id. */
  static final Bytes FIRST = Bytes.wrap(new byte[8]);

  private DueIndexKey() {}

  public static Bytes of(long dueAt, String taskId) {
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

  /** After every timer key (of any time ≥ 0) and before every queue key. */
  static final Bytes TIMERS_LAST = Bytes.wrap(new byte[] {(byte) 0x80});

  /** Before every queue key. */
  static final Bytes QUEUES_FIRST = Bytes.wrap(new byte[] {(byte) 0xFF});

  /** After every queue key: handler names are ASCII, never 0xFF. */
  static final Bytes QUEUES_LAST = Bytes.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF});

  /** The queue key of a task of {@code handler} due at {@code dueAt}. */
  static Bytes queued(String handler, long dueAt, String taskId) {
    byte[] h = handler.getBytes(StandardCharsets.UTF_8);
    byte[] id = taskId.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(
        ByteBuffer.allocate(2 + h.length + 8 + id.length)
            .put((byte) 0xFF)
            .put(h)
            .put((byte) 0)
            .putLong(Math.max(0, dueAt))
            .put(id)
            .array());
  }

  /** The handler of a queue key, or null for a timer key. */
  static String queueHandler(Bytes key) {
    byte[] k = key.get();
    if (k.length == 0 || k[0] != (byte) 0xFF) {
      return null;
    }
    int end = 1;
    while (end < k.length && k[end] != 0) {
      end++;
    }
    return new String(k, 1, end - 1, StandardCharsets.UTF_8);
  }

  /** The task id of a queue key of {@code handler}. */
  static String queuedTaskId(Bytes key, String handler) {
    byte[] k = key.get();
    int from = 2 + handler.getBytes(StandardCharsets.UTF_8).length + 8;
    return new String(Arrays.copyOfRange(k, from, k.length), StandardCharsets.UTF_8);
  }

  /** The due time of a queue key of {@code handler}. */
  static long queuedDueAt(Bytes key, String handler) {
    return ByteBuffer.wrap(key.get(), 2 + handler.getBytes(StandardCharsets.UTF_8).length, 8)
        .getLong();
  }

  public static long dueAt(Bytes key) {
    return ByteBuffer.wrap(key.get(), 0, 8).getLong();
  }

  static String taskId(Bytes key) {
    byte[] k = key.get();
    return new String(Arrays.copyOfRange(k, 8, k.length), StandardCharsets.UTF_8);
  }
}
