package io.tasklane.relay.internal;

import io.tasklane.core.LogText;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.outbox.OutboxRow;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.data.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the relay dead-letters to {@code <ns>.relay.dlt} for one outbox row, with its reason and its
 * log line: a row of a table that lost contract columns, a row that cannot be read, a row the
 * mapper rejected, and a record Kafka refused for good. Used by {@link BatchConsumer} on the
 * engine's thread; the missing-columns state it notes is in {@link RelayMetrics} (thread-safe).
 */
final class RowDeadLetters {
  // the consumer's logger: these lines keep the category operators filter on
  private static final Logger LOG = LoggerFactory.getLogger(BatchConsumer.class);
  private static final int MAX_RAW_CHARS = 65_536;

  private final Topics topics;
  private final String table;
  private final RelayMetrics metrics;

  RowDeadLetters(Topics topics, String table, RelayMetrics metrics) {
    this.topics = topics;
    this.table = table;
    this.metrics = metrics;
  }

  /**
   * The dead letter of row {@code after} when the table lacks contract columns, else null; notes
   * (and logs once) when the table loses its columns or has them all again.
   */
  ProducerRecord<String, byte[]> ifColumnsMissing(Struct after) {
    List<String> missing = OutboxStructs.missingColumns(after);
    noteMissingColumns(missing);
    if (missing.isEmpty()) {
      return null;
    }
    long rowId = OutboxStructs.idOf(after);
    String reason = missingReason(missing);
    LOG.warn("outbox row {} goes to {}: {}", rowId, topics.relayDlt(), reason);
    return DeadLetters.of(topics.relayDlt(), table, rowId, OutboxStructs.columnsOf(after), reason);
  }

  /** The dead letter of row {@code after} that could not be read ({@code error}). */
  ProducerRecord<String, byte[]> unreadable(Struct after, RuntimeException error) {
    return DeadLetters.of(
        topics.relayDlt(),
        table,
        -1,
        Map.of("raw", DeadLetters.clip(String.valueOf(after), MAX_RAW_CHARS)),
        "row: " + error.getMessage());
  }

  /** The dead letter of {@code row}, rejected for {@code reason}. */
  ProducerRecord<String, byte[]> rejected(OutboxRow row, String reason) {
    LOG.warn(
        "outbox row {} goes to {}: {}", row.id(), topics.relayDlt(), LogText.escape(reason, 1_000));
    return DeadLetters.of(topics.relayDlt(), table, row.id(), DeadLetters.rowOf(row), reason);
  }

  /** The dead letter of a record Kafka refused for good (see {@link KafkaSender.Refusals}). */
  ProducerRecord<String, byte[]> refused(
      OutboxRow row, ProducerRecord<String, byte[]> refused, Exception error, int times) {
    long rowId = row == null ? -1 : row.id();
    int bytes =
        (refused.value() == null ? 0 : refused.value().length)
            + (refused.key() == null ? 0 : refused.key().length());
    String reason =
        "record: Kafka refused the "
            + bytes
            + "-byte record on "
            + refused.topic()
            + " for good ("
            + error
            + "); Tasklane's topics and producer allow "
            + TopicAdmin.MAX_MESSAGE_BYTES
            + " bytes (max.message.bytes, max.request.size)";
    if (times == 1 && row != null && !refused.topic().equals(topics.relayDlt())) {
      LOG.warn("outbox row {} goes to {}: {}", rowId, topics.relayDlt(), reason);
      return DeadLetters.of(topics.relayDlt(), table, rowId, DeadLetters.rowOf(row), reason);
    }
    if (times <= 2) {
      LOG.warn("outbox row {}: dead letter refused, sending it without the row: {}", rowId, reason);
      return DeadLetters.withoutRow(topics.relayDlt(), table, rowId, reason);
    }
    LOG.error("outbox row {} dropped: even its short dead letter was refused: {}", rowId, reason);
    return null;
  }

  /** "handler: column missing — was tasklane_outbox altered?" (several: "a, b: columns ..."). */
  private String missingReason(List<String> missing) {
    return String.join(", ", missing)
        + (missing.size() == 1 ? ": column missing" : ": columns missing")
        + " — was "
        + table
        + " altered?";
  }

  /** Logs once when the table loses contract columns and once when it has them all again. */
  private void noteMissingColumns(List<String> missing) {
    List<String> before = metrics.missingColumns.getAndSet(List.copyOf(missing));
    if (before.equals(missing)) {
      return;
    }
    if (missing.isEmpty()) {
      LOG.warn("{} has every column the relay reads again: rows are relayed again", table);
    } else {
      LOG.error(
          "{} lacks column(s) {} the relay reads — was {} altered? Every row goes to {} until the"
              + " column(s) are restored (the relay keeps going; see /health missingColumns)",
          table,
          missing,
          table,
          topics.relayDlt());
    }
  }
}
