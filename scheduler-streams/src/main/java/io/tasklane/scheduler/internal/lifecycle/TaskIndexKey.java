package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys and values of the search index ({@link Stores#TASK_INDEX}): {@code state ‖ 0x00 ‖ handler ‖
 * 0x00 ‖ updatedAt (8 bytes big-endian) ‖ taskId}, so one (state, handler) group is one contiguous
 * range in {@code updatedAt} order; the value is {@code createdAt (8 bytes) ‖ orderingKey} (empty
 * when none), enough to list ids and routing keys without reading the records. A task queued for a
 * slot of its handler (timer kind QUEUED, PENDING or RETRYING) is in a group of its own, {@code
 * state ‖ 0x01 ‖ handler ‖ 0x00 ‖ …}: that entry is also its place in the queue, whose order is the
 * order in which the tasks were queued ({@code updatedAt}, then id), shifted by their priority
 * ({@link QueueRank}). State names and handler names ({@code [a-z0-9._-]}) never contain 0x00 or
 * 0x01. Stateless.
 */
public final class TaskIndexKey {
  private static final byte SEP = 0;

  /** After the state of a queued group's key, where the other groups have {@link #SEP}. */
  private static final byte QUEUED = 1;

  private TaskIndexKey() {}

  /** The key of {@code r}, or null when it has no entry (a placeholder, or no envelope). */
  public static Bytes of(String id, TaskRecord r) {
    if (r == null || r.state() == null || r.task() == null) {
      return null;
    }
    boolean queued = r.timerKind() == TimerKind.QUEUED;
    return of(r.state(), r.task().handler(), queued, QueueRank.indexedAt(r), id);
  }

  /**
   * The time in the key of {@code r}'s entry: its {@code updatedAt}, or for a queued task of a
   * priority other than the default its place in the queue ({@link QueueRank}).
   */
  public static long indexedAt(TaskRecord r) {
    return QueueRank.indexedAt(r);
  }

  public static Bytes of(TaskState state, String handler, long updatedAt, String id) {
    return of(state, handler, false, updatedAt, id);
  }

  public static Bytes of(
      TaskState state, String handler, boolean queued, long updatedAt, String id) {
    byte[] prefix = prefix(state, handler, queued);
    byte[] tail = id.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(
        ByteBuffer.allocate(prefix.length + 8 + tail.length)
            .put(prefix)
            .putLong(updatedAt)
            .put(tail)
            .array());
  }

  /** The first bytes of every key of the group (state, handler). */
  public static byte[] prefix(TaskState state, String handler) {
    return prefix(state, handler, false);
  }

  /** The first bytes of every key of the group (state, handler), or of its queued group. */
  public static byte[] prefix(TaskState state, String handler, boolean queued) {
    byte[] s = state.name().getBytes(StandardCharsets.US_ASCII);
    byte[] h = handler.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[s.length + h.length + 2];
    System.arraycopy(s, 0, out, 0, s.length);
    out[s.length] = queued ? QUEUED : SEP;
    System.arraycopy(h, 0, out, s.length + 1, h.length);
    out[out.length - 1] = SEP;
    return out;
  }

  /** The key of group {@code prefix} at {@code updatedAt} before every id (lowest). */
  public static Bytes at(byte[] prefix, long updatedAt) {
    return Bytes.wrap(
        ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(updatedAt).array());
  }

  /** The key of group {@code prefix} after every key at {@code updatedAt} (highest). */
  public static Bytes after(byte[] prefix, long updatedAt) {
    byte[] k = Arrays.copyOf(at(prefix, updatedAt).get(), prefix.length + 9);
    k[k.length - 1] = (byte) 0xFF; // ids are ASCII: 0xFF sorts after all of them
    return Bytes.wrap(k);
  }

  public static long updatedAt(Bytes key, int prefixLength) {
    return ByteBuffer.wrap(key.get(), prefixLength, 8).getLong();
  }

  /** The first key of the queued groups of {@code state}, before every handler. */
  static Bytes queuedFirst(TaskState state) {
    byte[] s = state.name().getBytes(StandardCharsets.US_ASCII);
    byte[] k = Arrays.copyOf(s, s.length + 1);
    k[s.length] = QUEUED;
    return Bytes.wrap(k);
  }

  /** A key after every key of the queued groups of {@code state}. */
  static Bytes queuedLast(TaskState state) {
    byte[] s = state.name().getBytes(StandardCharsets.US_ASCII);
    byte[] k = Arrays.copyOf(s, s.length + 1);
    k[s.length] = QUEUED + 1;
    return Bytes.wrap(k);
  }

  /** The length of the group prefix of {@code key}: up to the 0x00 after its handler. */
  static int prefixLength(Bytes key) {
    byte[] k = key.get();
    int i = 0;
    while (i < k.length && k[i] != SEP && k[i] != QUEUED) {
      i++;
    }
    i++;
    while (i < k.length && k[i] != SEP) {
      i++;
    }
    return i + 1;
  }

  /** The handler of {@code key}. */
  static String handler(Bytes key) {
    byte[] k = key.get();
    int i = 0;
    while (i < k.length && k[i] != SEP && k[i] != QUEUED) {
      i++;
    }
    int end = prefixLength(key) - 1;
    return new String(k, i + 1, Math.max(0, end - i - 1), StandardCharsets.UTF_8);
  }

  /** The task id of any key. */
  public static String taskId(Bytes key) {
    return taskId(key, prefixLength(key));
  }

  public static String taskId(Bytes key, int prefixLength) {
    byte[] k = key.get();
    return new String(k, prefixLength + 8, k.length - prefixLength - 8, StandardCharsets.UTF_8);
  }

  /**
   * The entry's value for {@code r}: its createdAt and lane key (its ordering or concurrency key:
   * its routing key when it is not the id).
   */
  static byte[] value(TaskRecord r) {
    String ok = r.task().laneKey();
    byte[] o = ok == null ? new byte[0] : ok.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + o.length).putLong(r.task().createdAt()).put(o).array();
  }

  public static long createdAt(byte[] value) {
    return value.length < 8 ? 0 : ByteBuffer.wrap(value).getLong();
  }

  /**
   * The lane key of an entry's value (its routing key), or null when the task has none (an entry an
   * earlier version wrote holds only an ordering key).
   */
  public static String orderingKey(byte[] value) {
    return value.length <= 8
        ? null
        : new String(value, 8, value.length - 8, StandardCharsets.UTF_8);
  }
}
