package io.tasklane.relay.internal;

import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxRow;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Builds the records of {@code <ns>.relay.dlt}: the row as JSON plus the reason, every text clipped
 * so that a record stays far below Kafka's limit (under 700 KB even when JSON escapes every
 * character) whatever the row held. Stateless.
 */
final class DeadLetters {
  static final String ROW_ID_HEADER = ReservedHeaders.RELAY_ROW_ID;
  static final String REASON_HEADER = ReservedHeaders.RELAY_REASON;
  static final String TABLE_HEADER = ReservedHeaders.RELAY_TABLE;

  /** Longest payload kept in a dead letter, in characters. */
  static final int MAX_PAYLOAD_CHARS = 65_536;

  /** Longest other column, and the reason in the value, in characters. */
  static final int MAX_TEXT_CHARS = 4096;

  /** Longest reason in the header, in characters. */
  static final int MAX_HEADER_REASON_CHARS = 1000;

  private DeadLetters() {}

  /** The dead letter of a row: {@code {"table","rowId","reason","row":{…}}}. */
  static ProducerRecord<String, byte[]> of(
      String topic, String table, long rowId, Map<String, Object> row, String reason) {
    String clipped = clip(reason, MAX_TEXT_CHARS);
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("table", table);
    value.put("rowId", rowId);
    value.put("reason", clipped);
    if (row != null) {
      value.put("row", row);
    }
    var record =
        new ProducerRecord<String, byte[]>(
            topic, null, String.valueOf(rowId), WireCodec.encode(value));
    record.headers().add(ROW_ID_HEADER, utf8(String.valueOf(rowId)));
    record.headers().add(REASON_HEADER, utf8(clip(clipped, MAX_HEADER_REASON_CHARS)));
    record.headers().add(TABLE_HEADER, utf8(table));
    return record;
  }

  /** The dead letter without the row: when even the clipped copy was refused. */
  static ProducerRecord<String, byte[]> withoutRow(
      String topic, String table, long rowId, String reason) {
    return of(topic, table, rowId, null, reason);
  }

  /**
   * {@code row} as a JSON-able map for the dead-letter record: the payload clipped to {@link
   * #MAX_PAYLOAD_CHARS}, every other text to {@link #MAX_TEXT_CHARS}.
   */
  static Map<String, Object> rowOf(OutboxRow row) {
    Map<String, Object> m = new LinkedHashMap<>();
    row.columns().forEach((column, v) -> m.put(column, OutboxStructs.clipped(column, v)));
    return m;
  }

  /** {@code s} cut to {@code max} characters (never inside a surrogate pair), noting the length. */
  static String clip(String s, int max) {
    if (s == null || s.length() <= max) {
      return s;
    }
    int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
    return s.substring(0, end) + "…(" + s.length() + " chars)";
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
