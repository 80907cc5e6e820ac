package io.tasklane.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.tasklane.core.internal.HotWire;
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

  /**
   * Encodes a record (or any JSON-mappable value) as UTF-8 JSON. A task, a dispatch and a result —
   * the records every task passes through — are written with the streaming API ({@link HotWire}),
   * in the same JSON.
   */
  public static byte[] encode(Object value) {
    try {
      if (value instanceof Dispatch d) {
        return HotWire.write(MAPPER, d);
      } else if (value instanceof TaskResult r) {
        return HotWire.write(MAPPER, r);
      } else if (value instanceof TaskEnvelope t) {
        return HotWire.write(MAPPER, t);
      }
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
    if (type == TaskTopicRecord.class) {
      return type.cast(decodeTaskRecord(json));
    } else if (type == Dispatch.class) {
      return type.cast(decodeDispatch(json));
    } else if (type == TaskResult.class) {
      return type.cast(decodeResult(json));
    }
    return bind(json, type);
  }

  /** Decodes one record of {@code type} with the data binding, checking its version. */
  private static <T extends Versioned> T bind(byte[] json, Class<T> type) {
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

  /**
   * Decodes a record of {@code tasklane.tasks}. A new task in the shape Tasklane writes it is read
   * with the streaming API ({@link HotWire}); anything else with the data binding, which decides.
   */
  public static TaskTopicRecord decodeTaskRecord(byte[] json) {
    TaskEnvelope task = json == null ? null : HotWire.readTask(MAPPER, json);
    if (task != null) {
      Wire.checkVersion(task.v());
      return task;
    }
    return bind(json, TaskTopicRecord.class);
  }

  public static ControlRecord decodeControl(byte[] json) {
    return decode(json, ControlRecord.class);
  }

  /** Decodes a dispatch; streaming when in the shape Tasklane writes it (see {@link HotWire}). */
  public static Dispatch decodeDispatch(byte[] json) {
    Dispatch d = json == null ? null : HotWire.readDispatch(MAPPER, json);
    if (d != null) {
      Wire.checkVersion(d.v());
      return d;
    }
    return bind(json, Dispatch.class);
  }

  /**
   * Decodes a task result; streaming when in the shape Tasklane writes it (see {@link HotWire}).
   */
  public static TaskResult decodeResult(byte[] json) {
    TaskResult r = json == null ? null : HotWire.readResult(MAPPER, json);
    if (r != null) {
      Wire.checkVersion(r.v());
      return r;
    }
    return bind(json, TaskResult.class);
  }

  public static TaskInterrupt decodeInterrupt(byte[] json) {
    return decode(json, TaskInterrupt.class);
  }

  public static UniqueRelease decodeUniqueRelease(byte[] json) {
    return decode(json, UniqueRelease.class);
  }

  public static WorkerHeartbeat decodeHeartbeat(byte[] json) {
    return decode(json, WorkerHeartbeat.class);
  }

  public static HandlerSetting decodeHandlerSetting(byte[] json) {
    return decode(json, HandlerSetting.class);
  }

  public static RateLimitSetting decodeRateLimitSetting(byte[] json) {
    return decode(json, RateLimitSetting.class);
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
