package io.tasklane.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.utils.Utils;

/**
 * Task ids: 128-bit, canonical UUID text.
 *
 * <ul>
 *   <li>Keyless tasks get a time-ordered UUIDv7 ({@link #keyless(Clock)}).
 *   <li>Keyed tasks get a name-based UUIDv5 of {@code (handler, key)} ({@link #forKey}), so the
 *       same key always yields the same id: resubmission is a duplicate, cancel-by-key is
 *       cancel-by-id.
 *   <li>Fires of a recurring schedule get a UUIDv5 of {@code (schedule, fireTime, shard)}; an
 *       unsharded fire's task takes the variant of it that lands in its schedule's partition
 *       ({@link #inPartitionOf}).
 * </ul>
 *
 * Thread-safe; no state.
 */
public final class TaskIds {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** The UUIDv5 namespace of Tasklane keyed ids. Never change it: ids would change. */
  public static final UUID NAMESPACE = UUID.fromString("5b1a4f52-9c0e-4d3a-8f6e-7a2c1d0e9b34");

  private TaskIds() {}

  /** A new time-ordered UUIDv7 whose millisecond prefix is {@code clock.millis()}. */
  public static String keyless(Clock clock) {
    long millis = clock.millis();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long msb = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
    long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }

  /**
   * The stable id of the task with idempotency key {@code key} for {@code handler}. The key is
   * normalised to Unicode NFC first, so "é" typed as one code point or as "e" plus a combining
   * accent names the same task.
   */
  public static String forKey(String handler, String key) {
    HandlerNames.check(handler);
    if (key == null || key.isEmpty()) {
      throw new InvalidTaskException("key", "is empty; leave it out for a keyless task");
    }
    String nfc = Normalizer.normalize(key, Normalizer.Form.NFC);
    return nameBased("key\u0000" + handler + "\u0000" + nfc);
  }

  /**
   * The stable id of batch {@code batch}'s callback task for {@code event} ({@code success} or
   * {@code complete}): a callback written twice (a scheduler that died after sending it) is one
   * task.
   */
  public static String forBatchCallback(String batch, String event) {
    return nameBased("batch\u0000" + batch + "\u0000" + event);
  }

  /** The stable id of one fire of a recurring schedule (shard -1 for an unsharded fire). */
  public static String forScheduleFire(String schedule, long fireTimeMs, int shard) {
    return nameBased("schedule\u0000" + schedule + "\u0000" + fireTimeMs + "\u0000" + shard);
  }

  /**
   * The id of a schedule fire's task placed in the partition of {@code key}: {@code id} itself when
   * Kafka's default key hashing (murmur2 of the UTF-8 text) puts it in the same one of {@code
   * partitions} partitions as {@code key}, else the first of its variants — its last four hex
   * digits replaced by {@code 0001}, {@code 0002}, … — that lands there. With {@code partitions} ≤
   * 1, or when none of the 65,535 variants lands there, {@code id} itself. Deterministic, so a fire
   * made again derives the same id. The scheduler places an unsharded fire's task in its schedule's
   * partition ({@code key} = the schedule's name) and admits it there, without a trip through the
   * tasks topic; an unsharded calendar fire's task id is {@code inPartitionOf(forScheduleFire(name,
   * fireTime, -1), name, partitions)}, with {@code partitions} the tasks topic's partition count.
   */
  public static String inPartitionOf(String id, String key, int partitions) {
    if (partitions <= 1) {
      return id;
    }
    int target = partitionOf(key, partitions);
    if (partitionOf(id, partitions) == target) {
      return id;
    }
    byte[] text = check("id", id).getBytes(StandardCharsets.US_ASCII);
    for (int variant = 1; variant <= 0xFFFF; variant++) {
      for (int digit = 0; digit < 4; digit++) {
        text[35 - digit] = (byte) HEX[(variant >>> (4 * digit)) & 0xF];
      }
      if (Utils.toPositive(Utils.murmur2(text)) % partitions == target) {
        return new String(text, StandardCharsets.US_ASCII);
      }
    }
    return id;
  }

  /** The partition of {@code key} among {@code partitions} by Kafka's default key hashing. */
  public static int partitionOf(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /** The id of the fire made by {@link ScheduleTrigger} {@code triggerId} of {@code schedule}. */
  public static String forScheduleTrigger(String schedule, String triggerId) {
    return nameBased("schedule-trigger\u0000" + schedule + "\u0000" + triggerId);
  }

  /** The id of the fire of child schedule {@code child} after parent fire {@code parentFire}. */
  public static String forScheduleChild(String child, String parentFire) {
    return nameBased("schedule-child\u0000" + child + "\u0000" + parentFire);
  }

  /**
   * The id of shard {@code shard} of a triggered or child fire {@code fireId} (a calendar fire's
   * tasks use {@link #forScheduleFire}); shard -1 (an unsharded fire) is the fire id itself.
   */
  public static String forFireShard(String fireId, int shard) {
    return shard < 0 ? fireId : nameBased("fire-shard\u0000" + fireId + "\u0000" + shard);
  }

  /** True when {@code id} is a UUID in canonical lower-case text. */
  public static boolean isValid(String id) {
    if (id == null || id.length() != 36) {
      return false;
    }
    try {
      return UUID.fromString(id).toString().equals(id);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Returns {@code id} or throws an {@link InvalidTaskException} for {@code field}. */
  public static String check(String field, String id) {
    if (!isValid(id)) {
      throw new InvalidTaskException(
          field,
          "'"
              + (id == null ? "null" : HandlerNames.abbreviate(id))
              + "' is not a task id (a canonical lower-case UUID, 36 characters)");
    }
    return id;
  }

  /** The epoch millis embedded in a UUIDv7, or -1 for other versions. */
  public static long timestampOf(String id) {
    UUID uuid = UUID.fromString(id);
    return uuid.version() == 7 ? uuid.getMostSignificantBits() >>> 16 : -1;
  }

  private static String nameBased(String name) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      ByteBuffer ns = ByteBuffer.allocate(16);
      ns.putLong(NAMESPACE.getMostSignificantBits()).putLong(NAMESPACE.getLeastSignificantBits());
      sha1.update(ns.array());
      byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
      hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
      hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
      ByteBuffer bb = ByteBuffer.wrap(hash, 0, 16);
      return new UUID(bb.getLong(), bb.getLong()).toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required by every JVM", e);
    }
  }
}
