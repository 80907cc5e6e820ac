package io.tasklane.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The JSON codec of every Tasklane record: UTF-8, unknown fields tolerated, no default typing
 * (polymorphism only through the explicit {@code type} / {@code kind} fields), and the version
 * {@code v} checked on every read. Thread-safe.
 */
public final class WireCodec {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .addModule(new BlackbirdModule())
          .build();

  private WireCodec() {}

  /** Encodes a record (or any JSON-mappable value) as UTF-8 JSON. */
  public static byte[] encode(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new WireFormatException("cannot encode " + value.getClass().getName(), e);
    }
  }

  /** Encodes as a JSON string. */
  public static String encodeToString(Object value) {
    return new String(encode(value), StandardCharsets.UTF_8);
  }

  /** Decodes one record of {@code type}, checking its version. */
  public static <T extends Versioned> T decode(byte[] json, Class<T> type) {
    if (json == null) {
      throw new WireFormatException("record value is null; expected a " + type.getSimpleName());
    }
    T value;
    try {
      value = MAPPER.readValue(json, type);
    } catch (IOException e) {
      throw new WireFormatException(
          "not a valid " + type.getSimpleName() + fieldPath(e) + ": " + firstLine(e.getMessage()),
          e);
    }
    if (value == null) {
      throw new WireFormatException("record is JSON null; expected a " + type.getSimpleName());
    }
    Wire.checkVersion(value.v());
    return value;
  }

  public static TaskTopicRecord decodeTaskRecord(byte[] json) {
    return decode(json, TaskTopicRecord.class);
  }

  public static ControlRecord decodeControl(byte[] json) {
    return decode(json, ControlRecord.class);
  }

  public static Dispatch decodeDispatch(byte[] json) {
    return decode(json, Dispatch.class);
  }

  public static TaskResult decodeResult(byte[] json) {
    return decode(json, TaskResult.class);
  }

  public static TaskInterrupt decodeInterrupt(byte[] json) {
    return decode(json, TaskInterrupt.class);
  }

  public static WorkerHeartbeat decodeHeartbeat(byte[] json) {
    return decode(json, WorkerHeartbeat.class);
  }

  public static HandlerSetting decodeHandlerSetting(byte[] json) {
    return decode(json, HandlerSetting.class);
  }

  /** Parses any JSON text (a payload) into a tree. */
  public static JsonNode readTree(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new WireFormatException("not valid JSON: " + firstLine(e.getMessage()), e);
    }
  }

  /** Converts a JSON tree into {@code type} (payload binding). */
  public static <T> T treeToValue(JsonNode node, Class<T> type) {
    try {
      return MAPPER.treeToValue(node, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new WireFormatException(
          "payload does not bind to " + type.getName() + ": " + firstLine(e.getMessage()), e);
    }
  }

  /** The shared, configured mapper. Do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  private static String fieldPath(IOException e) {
    if (e instanceof JsonMappingException jme && !jme.getPath().isEmpty()) {
      StringBuilder path = new StringBuilder(" (field ");
      for (JsonMappingException.Reference ref : jme.getPath()) {
        path.append(
            ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]");
      }
      return path.append(')').toString().replace("(field .", "(field ");
    }
    return "";
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
