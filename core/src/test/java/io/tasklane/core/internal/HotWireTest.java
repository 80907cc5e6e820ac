package io.tasklane.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Shard;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The streaming codec writes exactly the bytes the data binding writes and reads every record to
 * the same value (or hands it to the data binding), over many generated records and the odd shapes
 * a hand-written or foreign producer may send.
 */
class HotWireTest {
  private static final ObjectMapper MAPPER = WireCodec.mapper();
  private static final String[] TEXTS = {
    "a", "", "ünïcødé ✓", "quote \" and \\ back", "line\nbreak\ttab", "\u0001ctl", "😀 astral"
  };

  static Stream<Long> seeds() {
    return new Random(47).longs(300).boxed();
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void aTaskIsWrittenAsTheDataBindingWritesItAndReadBackEqual(long seed) throws Exception {
    TaskEnvelope task = task(new Random(seed));
    byte[] bound = MAPPER.writerFor(TaskTopicRecord.class).writeValueAsBytes(task);
    byte[] streamed = HotWire.write(MAPPER, task);
    assertThat(new String(streamed, StandardCharsets.UTF_8))
        .isEqualTo(new String(bound, StandardCharsets.UTF_8));
    assertThat(HotWire.readTask(MAPPER, bound)).isEqualTo(task);
    assertThat(MAPPER.readValue(streamed, TaskTopicRecord.class)).isEqualTo(task);
    assertThat(WireCodec.decodeTaskRecord(streamed)).isEqualTo(task);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void aDispatchIsWrittenAsTheDataBindingWritesItAndReadBackEqual(long seed) throws Exception {
    Random r = new Random(seed);
    Dispatch d =
        new Dispatch(
            1,
            r.nextInt(10) == 0 ? null : task(r),
            r.nextInt(1000),
            r.nextLong(),
            r.nextBoolean() ? null : text(r),
            r.nextLong(),
            r.nextBoolean() ? null : r.nextLong(),
            r.nextBoolean() ? null : text(r),
            r.nextBoolean() ? null : (long) r.nextInt(1_000));
    byte[] bound = MAPPER.writeValueAsBytes(d);
    byte[] streamed = HotWire.write(MAPPER, d);
    assertThat(new String(streamed, StandardCharsets.UTF_8))
        .isEqualTo(new String(bound, StandardCharsets.UTF_8));
    assertThat(HotWire.readDispatch(MAPPER, bound)).isEqualTo(d);
    assertThat(MAPPER.readValue(streamed, Dispatch.class)).isEqualTo(d);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void aResultIsWrittenAsTheDataBindingWritesItAndReadBackEqual(long seed) throws Exception {
    Random r = new Random(seed);
    TaskResult result =
        new TaskResult(
            1,
            r.nextBoolean() ? text(r) : null,
            r.nextInt(),
            r.nextInt(7) == 0 ? null : Outcome.values()[r.nextInt(Outcome.values().length)],
            r.nextBoolean()
                ? null
                : new ErrorInfo(
                    r.nextBoolean() ? null : text(r), text(r), r.nextBoolean() ? null : text(r)),
            r.nextBoolean() ? null : r.nextLong(),
            r.nextLong(),
            r.nextLong(),
            r.nextBoolean() ? null : text(r),
            r.nextBoolean() ? null : text(r),
            r.nextBoolean() ? null : text(r));
    byte[] bound = MAPPER.writeValueAsBytes(result);
    byte[] streamed = HotWire.write(MAPPER, result);
    assertThat(new String(streamed, StandardCharsets.UTF_8))
        .isEqualTo(new String(bound, StandardCharsets.UTF_8));
    assertThat(HotWire.readResult(MAPPER, bound)).isEqualTo(result);
    assertThat(MAPPER.readValue(streamed, TaskResult.class)).isEqualTo(result);
  }

  @Test
  void fieldsInAnyOrderAndUnknownFieldsAreReadLikeTheDataBindingReadsThem() throws Exception {
    String json =
        "{\"future\":{\"a\":[1,{\"b\":null}]},\"handler\":\"h\",\"v\":1,\"payload\":[1,\"x\"],"
            + "\"backoff\":{\"maxDelayMs\":5,\"kind\":\"sidekiq\",\"extra\":true},\"id\":\"t1\","
            + "\"type\":\"task\",\"source\":{\"rowId\":7,\"table\":null,\"z\":1}}";
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    TaskEnvelope fast = HotWire.readTask(MAPPER, bytes);
    assertThat(fast).isNotNull().isEqualTo(MAPPER.readValue(bytes, TaskTopicRecord.class));
    assertThat(fast.source()).isEqualTo(new Source(null, 7));
  }

  @Test
  void recordsOutsideThePlainShapeAreLeftToTheDataBindingWhichStillReadsThem() throws Exception {
    for (String json :
        List.of(
            // a number where a string goes, a string where a number goes: the binding coerces
            "{\"type\":\"task\",\"v\":1,\"id\":42,\"handler\":\"h\"}",
            "{\"type\":\"task\",\"v\":\"1\",\"id\":\"a\",\"dueAt\":\"5\"}",
            // a field twice
            "{\"type\":\"task\",\"v\":1,\"id\":\"a\",\"id\":\"b\"}",
            // another record type
            "{\"type\":\"cancel\",\"v\":1,\"id\":\"a\",\"requestedAt\":5}")) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      assertThat(HotWire.readTask(MAPPER, bytes)).as(json).isNull();
      assertThat(WireCodec.decodeTaskRecord(bytes))
          .as(json)
          .isEqualTo(MAPPER.readValue(bytes, TaskTopicRecord.class));
    }
  }

  @Test
  void badRecordsGetTheDataBindingsErrors() {
    for (String json :
        List.of(
            "{\"type\":\"task\",\"id\":\"a\"}",
            "{\"type\":\"task\",\"v\":1,\"backoff\":{\"kind\":\"fixed\",\"delaysMs\":[]}}",
            "{\"type\":\"task\",\"v\":1,\"shard\":{\"index\":3,\"total\":2}}",
            "{\"type\":\"task\",\"v\":1,\"maxAttempts\":99999999999}",
            "{\"type\":\"task\",\"v\":1,\"headers\":{\"a\":null}}",
            "{\"type\":\"task\",\"v\":1,")) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      assertThat(HotWire.readTask(MAPPER, bytes)).as(json).isNull();
      assertThatThrownBy(() -> WireCodec.decodeTaskRecord(bytes))
          .as(json)
          .isInstanceOf(WireFormatException.class);
    }
    assertThatThrownBy(
            () -> WireCodec.decodeResult("{\"v\":1,\"outcome\":\"EXPLODED\"}".getBytes()))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("EXPLODED");
    assertThatThrownBy(() -> WireCodec.decodeDispatch("{\"task\":null}".getBytes()))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("'v'");
  }

  private static TaskEnvelope task(Random r) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      headers.put(text(r) + i, text(r));
    }
    List<String> dependsOn = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      dependsOn.add(text(r));
    }
    return TaskEnvelope.builder()
        .id(r.nextInt(8) == 0 ? null : "t-" + r.nextLong())
        .handler(r.nextInt(8) == 0 ? null : "handler." + r.nextInt(100))
        .key(r.nextBoolean() ? null : text(r))
        .orderingKey(r.nextBoolean() ? null : text(r))
        .payload(payload(r))
        .dueAt(r.nextLong())
        .maxAttempts(r.nextInt())
        .timeoutMs(r.nextLong())
        .backoff(backoff(r))
        .dependsOn(dependsOn)
        .headers(headers)
        .createdAt(r.nextLong())
        .source(r.nextBoolean() ? null : new Source(r.nextBoolean() ? null : text(r), r.nextLong()))
        .shard(r.nextBoolean() ? null : new Shard(r.nextInt(5), 5 + r.nextInt(5)))
        .options(
            r.nextBoolean()
                ? null
                : TaskOptions.builder().waitTimeout(Duration.ofSeconds(1 + r.nextInt(100))).build())
        .build();
  }

  private static RetryPolicy backoff(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> null;
      case 1 -> new RetryPolicy.Sidekiq(1 + r.nextInt(1_000_000));
      case 2 -> new RetryPolicy.Exponential(1 + r.nextInt(1000), 1 + r.nextInt(1_000_000));
      default -> new RetryPolicy.Fixed(List.of(1L + r.nextInt(1000), 1L + r.nextInt(1000)));
    };
  }

  private static JsonNode payload(Random r) {
    return switch (r.nextInt(6)) {
      case 0 -> null;
      case 1 -> MAPPER.getNodeFactory().textNode(text(r));
      case 2 -> MAPPER.getNodeFactory().numberNode(r.nextDouble());
      case 3 -> MAPPER.createArrayNode().add(r.nextLong()).add(text(r)).addNull();
      default ->
          MAPPER
              .createObjectNode()
              .put("n", r.nextInt())
              .put(text(r), text(r))
              .set("nested", MAPPER.createObjectNode().put("ok", r.nextBoolean()));
    };
  }

  private static String text(Random r) {
    return TEXTS[r.nextInt(TEXTS.length)] + r.nextInt(1000);
  }
}
