package io.tasklane.scheduler.internal.api;

import io.micronaut.http.HttpResponse;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.RecordSender;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An operator's setting written through the API to a compacted topic that every instance follows
 * (handler settings, rate limits): the record is sent and acknowledged, the change audit-logged,
 * and the call waits (up to {@link #APPLY_WAIT_MS}) until this instance has read it back, so that
 * the answer shows it. Called on Micronaut's blocking executor.
 */
final class SettingWrite {
  /** The longest a call waits for this instance to read its own setting back. */
  static final long APPLY_WAIT_MS = 5_000;

  private SettingWrite() {}

  /**
   * Writes {@code value} (null: a tombstone) under {@code key} to {@code topic} and audits {@code
   * action} on {@code target}; then waits until {@code readBack} holds. Returns null when written,
   * else the 503 to answer.
   */
  static HttpResponse<String> write(
      RecordSender sender,
      AuditLog audit,
      Clock clock,
      String topic,
      String key,
      byte[] value,
      String actor,
      String action,
      String target,
      BooleanSupplier readBack) {
    try {
      sender.send(new ProducerRecord<>(topic, key, value)).get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ApiErrors.json(503, "unavailable", "interrupted");
    } catch (Exception e) {
      audit.record(actor, action, target, AuditLog.FAILED, e.toString());
      return ApiErrors.json(503, "unavailable", "could not write the setting: " + e.getMessage());
    }
    audit.record(actor, action, target, AuditLog.ACCEPTED, null);
    long deadline = clock.millis() + APPLY_WAIT_MS;
    while (!readBack.getAsBoolean() && clock.millis() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return null;
  }
}
