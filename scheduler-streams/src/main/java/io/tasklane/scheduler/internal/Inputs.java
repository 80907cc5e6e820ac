package io.tasklane.scheduler.internal;

import java.util.function.Function;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decoding and guarding of input records. Sources consume raw bytes and decode here, so a record
 * that does not decode is logged, counted and skipped instead of failing the stream thread.
 */
final class Inputs {
  private static final Logger LOG = LoggerFactory.getLogger(Inputs.class);

  private Inputs() {}

  /** The decoded value, or null (logged and counted as {@code invalid.<source>}). */
  static <T> T decode(
      String source, Record<String, byte[]> record, Function<byte[], T> decoder, Engine engine) {
    try {
      return decoder.apply(record.value());
    } catch (RuntimeException e) {
      LOG.warn(
          "skipping undecodable record on {} (key {}): {}", source, record.key(), e.getMessage());
      engine.metrics().count("invalid." + source);
      return null;
    }
  }

  /**
   * Runs one record's handling; a bug or bad data there is logged, counted and skipped. Streams'
   * own errors (task migrated, fenced producer) are rethrown so Streams can recover.
   */
  static void guard(String source, String key, Engine engine, Runnable handling) {
    try {
      handling.run();
    } catch (StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      LOG.error("failed to handle a record on {} (key {}); skipped", source, key, e);
      engine.metrics().count("error." + source);
    }
  }
}
