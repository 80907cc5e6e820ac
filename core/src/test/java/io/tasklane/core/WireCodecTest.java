package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WireCodecTest {
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void toleratesUnknownFields() {
    var cancel =
        WireCodec.decodeTaskRecord(
            utf8(
                "{\"type\":\"cancel\",\"v\":1,\"id\":\"x\",\"requestedAt\":5,\"futureField\":{\"a\":1}}"));
    assertThat(cancel).isEqualTo(CancelCommand.of("x", null, 5));
  }

  @Test
  void refusesUnknownVersionNamingIt() {
    assertThatThrownBy(
            () -> WireCodec.decodeTaskRecord(utf8("{\"type\":\"cancel\",\"v\":2,\"id\":\"x\"}")))
        .isInstanceOf(UnsupportedVersionException.class)
        .hasMessageContaining("v=2")
        .hasMessageContaining("v=1");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "missing version | {\"type\":\"cancel\",\"id\":\"x\"} | 'v'",
        "unknown type | {\"type\":\"explode\",\"v\":1,\"id\":\"x\"} | explode",
        "missing type | {\"v\":1,\"id\":\"x\"} | type",
        "broken JSON | {\"type\":\"cancel\",\"v\":1, | TaskTopicRecord",
        "JSON array | [1,2] | TaskTopicRecord",
        "wrong field type | {\"type\":\"cancel\",\"v\":1,\"id\":\"x\",\"requestedAt\":\"soon\"} | requestedAt",
        "control type on tasks topic | {\"type\":\"retry-dead\",\"v\":1,\"id\":\"x\"} | retry-dead",
      })
  void badBytesGiveWireFormatException(String label, String json, String mentions) {
    assertThatThrownBy(() -> WireCodec.decodeTaskRecord(utf8(json)))
        .as(label)
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining(mentions);
  }

  @Test
  void awaitWithATooLongProbePathIsRefusedNamingTheLimit() {
    String path =
        IntStream.rangeClosed(0, ControlCommand.Await.MAX_PROBE_PATH)
            .mapToObj(i -> "\"t" + i + "\"")
            .collect(Collectors.joining(",", "[", "]"));
    String json =
        "{\"type\":\"await\",\"v\":1,\"id\":\"d\",\"waiterId\":\"w\",\"waiterRoutingKey\":\"w\",\"path\":"
            + path
            + "}";
    assertThatThrownBy(() -> WireCodec.decodeControl(utf8(json)))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("path")
        .hasMessageContaining(String.valueOf(ControlCommand.Await.MAX_PROBE_PATH));
    assertThat(WireCodec.decodeControl(utf8(json.replace("\"t0\",", ""))))
        .isInstanceOf(ControlCommand.Await.class);
  }

  @Test
  void nullBytesAreRefused() {
    assertThatThrownBy(() -> WireCodec.decodeResult(null))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("null");
  }

  @Test
  void serdeRoundTrips() {
    var serde = WireSerde.of(TaskResult.class);
    TaskResult result = TaskResult.succeeded("id-1", 3, 10, 20, "w");
    byte[] bytes = serde.serializer().serialize("t", result);
    assertThat(serde.deserializer().deserialize("t", bytes)).isEqualTo(result);
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
  }

  @Test
  void payloadBindsToTypeOrSaysWhy() {
    record Order(long orderId) {}
    var node = WireCodec.readTree("{\"orderId\":42}");
    assertThat(WireCodec.treeToValue(node, Order.class)).isEqualTo(new Order(42));
    assertThatThrownBy(() -> WireCodec.treeToValue(WireCodec.readTree("[1]"), Order.class))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining(Order.class.getName());
  }
}
