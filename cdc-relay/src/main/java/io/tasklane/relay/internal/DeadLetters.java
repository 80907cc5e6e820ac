package io.tasklane.relay.internal;

import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Builds the records of {@code <ns>.relay.dlt}: the row as JSON plus the reason. Stateless. */
final class DeadLetters {
  static final String ROW_ID_HEADER = "tasklane.relay.row-id";
  static final String REASON_HEADER = "tasklane.relay.reason";
  static final String TABLE_HEADER = "tasklane.relay.table";

  private DeadLetters() {}

  static ProducerRecord<String, byte[]> of(
      String topic, String table, long rowId, Map<String, Object> row, String reason) {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("table", table);
    value.put("rowId", rowId);
    value.put("reason", reason);
    value.put("row", row);
    var record =
        new ProducerRecord<String, byte[]>(
            topic, null, String.valueOf(rowId), WireCodec.encode(value));
    record.headers().add(ROW_ID_HEADER, utf8(String.valueOf(rowId)));
    String shortReason = reason.length() > 1000 ? reason.substring(0, 1000) + "…" : reason;
    record.headers().add(REASON_HEADER, utf8(shortReason));
    record.headers().add(TABLE_HEADER, utf8(table));
    return record;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
