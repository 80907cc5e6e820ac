package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * JSON nested deeper than any task needs (a payload of 5,000 nested arrays) is a clear format error
 * naming the depth limit, read or written, never a StackOverflowError that kills a stream or
 * consumer thread.
 */
class DeepNestingTest {
  private static final int DEPTH = 5_000;

  @Test
  void aDeeplyNestedRecordOnATopicIsAFormatErrorNamingTheLimit() {
    String payload = "[".repeat(DEPTH) + "]".repeat(DEPTH);
    byte[] json =
        ("{\"v\":1,\"kind\":\"TASK\",\"task\":{\"id\":\"x\",\"payload\":" + payload + "}}")
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> WireCodec.decodeTaskRecord(json))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("nesting depth");
    assertThatThrownBy(() -> WireCodec.readTree(payload))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void aDeeplyNestedPayloadBuiltInMemoryIsRefusedWhenEncoded() {
    ArrayNode root = JsonNodeFactory.instance.arrayNode();
    ArrayNode at = root;
    for (int i = 0; i < DEPTH; i++) {
      at = at.addArray();
    }
    JsonNode deep = root;
    assertThatThrownBy(() -> WireCodec.encode(deep))
        .isInstanceOf(WireFormatException.class)
        .hasStackTraceContaining("nesting depth");
  }
}
