package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.LogText;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import java.util.function.Function;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decoding and guarding of the input records of one processor. Sources consume raw bytes and decode
 * here, so a record that does not decode, fails validation or fails while it is applied is logged,
 * counted and written as it came to {@code <ns>.scheduler.dlt} ({@link
 * Outputs#schedulerDeadLetter}) instead of failing the stream thread. Used on one stream thread.
 */
public final class Inputs {
  static final String UNDECODABLE = "undecodable";
  static final String INVALID = "invalid";
  static final String FAILED = "failed";
  static final String WRONG_KEY = "wrong-key";
  static final String RESULT_MISMATCH = "result-mismatch";

  private static final Logger LOG = LoggerFactory.getLogger(Inputs.class);

  private final String source;
  private final SchedulerEvent invalid;
  private final SchedulerEvent wrongKey;
  private final SchedulerEvent error;
  private final Engine engine;
  private final Outputs out;

  /**
   * @param source the input's short name ({@code tasks}, {@code results}, {@code control})
   */
  Inputs(String source, Engine engine, Outputs out) {
    this.source = source;
    this.invalid = SchedulerEvent.invalid(source);
    this.wrongKey = SchedulerEvent.wrongKey(source);
    this.error = SchedulerEvent.error(source);
    this.engine = engine;
    this.out = out;
  }

  /** The decoded value, or null (logged, counted as {@code invalid.<source>}, dead-lettered). */
  <T> T decode(Record<String, byte[]> record, Function<byte[], T> decoder) {
    try {
      return decoder.apply(record.value());
    } catch (RuntimeException e) {
      LOG.warn(
          "undecodable record on {} (key {}): {}; written to the scheduler DLT",
          source,
          LogText.escape(record.key()),
          LogText.escape(e.getMessage(), 1_000));
      engine.metrics().count(invalid);
      deadLetter(record, UNDECODABLE, e.getMessage(), e);
      return null;
    }
  }

  /** A decoded record the scheduler refuses (e.g. a task failing validation). */
  void reject(Record<String, byte[]> record, String message, RuntimeException e) {
    LOG.warn(
        "invalid record on {} (key {}): {}; written to the scheduler DLT",
        source,
        LogText.escape(record.key()),
        LogText.escape(message, 1_000));
    engine.metrics().count(invalid);
    deadLetter(record, INVALID, message, e);
  }

  /**
   * True when the record's key is {@code expected}, the routing key its body implies. Otherwise the
   * record is on a partition where that task's state does not live (or a null key put it on any
   * partition): applying it there would create or change state that results and commands never
   * reach. It is logged, counted ({@code wrong-key.<source>}) and dead-lettered with reason {@code
   * wrong-key} naming both keys, and false is returned.
   */
  boolean keyIs(Record<String, byte[]> record, String expected, String what) {
    if (expected == null || expected.equals(record.key())) {
      return true;
    }
    String message =
        "wrong-key: expected key '"
            + expected
            + "' ("
            + what
            + "), found "
            + (record.key() == null ? "null" : "'" + record.key() + "'")
            + "; a record applied on the wrong partition would never meet its task's results and"
            + " commands";
    LOG.warn(
        "record on {} not applied: {}; written to the scheduler DLT",
        source,
        LogText.escape(message, 1_000));
    engine.metrics().count(wrongKey);
    deadLetter(record, WRONG_KEY, message, null);
    return false;
  }

  /**
   * A result for the current attempt that is not bound to its dispatch ({@link ResultProcessor}):
   * logged, counted ({@code result.mismatch}) and dead-lettered as it came with reason {@code
   * result-mismatch}, header {@link Outputs#MISMATCH} naming the fields that did not match ({@code
   * nonce}, {@code handler}) and {@code message}, which never holds a nonce.
   */
  void mismatch(Record<String, byte[]> record, String fields, String message) {
    LOG.warn(
        "record on {} not applied: {}; written to the scheduler DLT",
        source,
        LogText.escape(message, 1_000));
    engine.metrics().count(SchedulerEvent.RESULT_MISMATCH);
    out.schedulerDeadLetter(
        record.key(),
        record.value(),
        RESULT_MISMATCH,
        message,
        null,
        record.timestamp(),
        Outputs.MISMATCH,
        fields);
    engine.metrics().deadLettered(source, RESULT_MISMATCH);
  }

  /**
   * Runs one record's handling; a bug or bad data there is logged, counted and dead-lettered, and
   * the next record is processed. Streams' own errors (task migrated, fenced producer) are rethrown
   * so Streams can recover.
   */
  void guard(Record<String, byte[]> record, Runnable handling) {
    try {
      handling.run();
    } catch (StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      LOG.error(
          "failed to apply a record on {} (key {}); written to the scheduler DLT",
          source,
          LogText.escape(record.key()),
          e);
      engine.metrics().count(error);
      deadLetter(record, FAILED, String.valueOf(e), e);
    }
  }

  private void deadLetter(
      Record<String, byte[]> record, String reason, String message, Throwable e) {
    out.schedulerDeadLetter(record.key(), record.value(), reason, message, e, record.timestamp());
    engine.metrics().deadLettered(source, reason);
  }
}
