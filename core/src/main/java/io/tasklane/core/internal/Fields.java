package io.tasklane.core.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Field-level reads and writes shared by the streaming readers and writers: a value of the one JSON
 * type its Java type binds from without coercion, or {@link Unusual}. Stateless.
 */
final class Fields {
  private static final Map<String, Long> BITS = new HashMap<>();

  static {
    String[] names = {
      "type",
      "v",
      "id",
      "handler",
      "key",
      "orderingKey",
      "payload",
      "dueAt",
      "maxAttempts",
      "timeoutMs",
      "backoff",
      "dependsOn",
      "headers",
      "createdAt",
      "source",
      "shard",
      "options",
      "kind",
      "maxDelayMs",
      "baseMs",
      "delaysMs",
      "table",
      "rowId",
      "index",
      "total",
      "task",
      "attempt",
      "deadline",
      "routingKey",
      "dispatchedAt",
      "notBefore",
      "nonce",
      "slotTolerance",
      "outcome",
      "error",
      "retryAfterMs",
      "startedAt",
      "finishedAt",
      "worker",
      "message",
      "stack"
    };
    for (int i = 0; i < names.length; i++) {
      BITS.put(names[i], 1L << i);
    }
  }

  private Fields() {}

  /** The known fields one object has given so far (to catch a field given twice). */
  static final class Seen {
    private long bits;
  }

  /**
   * Moves to the next field of the object being read and on to its value (then the current token):
   * returns the field's name, or null at the end of the object. {@link Unusual} when a known field
   * comes a second time.
   */
  static String next(JsonParser p, Seen seen) throws IOException {
    if (p.nextToken() == JsonToken.END_OBJECT) {
      return null;
    }
    String name = p.currentName();
    p.nextToken();
    long bit = bit(name);
    EnvelopeJson.expect((seen.bits & bit) == 0);
    seen.bits |= bit;
    return name;
  }

  /** The bit of a known field name; 0 for any other name. */
  private static long bit(String name) {
    Long bit = BITS.get(name);
    return bit == null ? 0 : bit;
  }

  static String string(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    EnvelopeJson.expect(t == JsonToken.VALUE_NULL);
    return null;
  }

  static int integer(JsonParser p, JsonToken t) throws IOException {
    EnvelopeJson.expect(t == JsonToken.VALUE_NUMBER_INT);
    return p.getIntValue();
  }

  static long number(JsonParser p, JsonToken t) throws IOException {
    EnvelopeJson.expect(t == JsonToken.VALUE_NUMBER_INT);
    return p.getLongValue();
  }

  static Long optionalNumber(JsonParser p, JsonToken t) throws IOException {
    return t == JsonToken.VALUE_NULL ? null : number(p, t);
  }

  static List<String> strings(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    EnvelopeJson.expect(t == JsonToken.START_ARRAY);
    List<String> values = new ArrayList<>();
    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
      EnvelopeJson.expect(e == JsonToken.VALUE_STRING);
      values.add(p.getText());
    }
    return values;
  }

  static void stringIfSet(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }
}
