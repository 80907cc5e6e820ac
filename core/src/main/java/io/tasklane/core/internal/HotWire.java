package io.tasklane.core.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The records every task passes through — a new task on {@code tasklane.tasks}, its {@link
 * Dispatch} and the worker's {@link TaskResult} — read and written with Jackson's streaming API
 * instead of the data binding, in the same JSON. Used by {@code WireCodec}; a {@code read*} method
 * returns null when the record is not in the plain shape its writer produces (or is another kind of
 * record), and the caller reads it with the data binding instead, which then decides what it is or
 * why it is refused. Stateless and thread-safe.
 */
public final class HotWire {
  private HotWire() {}

  /**
   * A new task on {@code tasklane.tasks}, or null when {@code json} is another record or not in the
   * plain shape.
   */
  public static TaskEnvelope readTask(ObjectMapper mapper, byte[] json) {
    return read(mapper, json, EnvelopeJson::read);
  }

  /** A dispatch, or null when {@code json} is not in the plain shape. */
  public static Dispatch readDispatch(ObjectMapper mapper, byte[] json) {
    return read(mapper, json, HotWire::dispatch);
  }

  private static Dispatch dispatch(JsonParser p) throws IOException {
    Integer v = null;
    TaskEnvelope task = null;
    int attempt = 0;
    long deadline = 0;
    String routingKey = null;
    long dispatchedAt = 0;
    Long notBefore = null;
    String nonce = null;
    Long slotTolerance = null;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken t = p.currentToken();
      switch (name) {
        case "v" -> v = Fields.integer(p, t);
        case "task" -> task = t == JsonToken.VALUE_NULL ? null : envelope(p);
        case "attempt" -> attempt = Fields.integer(p, t);
        case "deadline" -> deadline = Fields.number(p, t);
        case "routingKey" -> routingKey = Fields.string(p, t);
        case "dispatchedAt" -> dispatchedAt = Fields.number(p, t);
        case "notBefore" -> notBefore = Fields.optionalNumber(p, t);
        case "nonce" -> nonce = Fields.string(p, t);
        case "slotTolerance" -> slotTolerance = Fields.optionalNumber(p, t);
        default -> p.skipChildren();
      }
    }
    EnvelopeJson.expect(v != null);
    return new Dispatch(
        v, task, attempt, deadline, routingKey, dispatchedAt, notBefore, nonce, slotTolerance);
  }

  /** A task result, or null when {@code json} is not in the plain shape. */
  public static TaskResult readResult(ObjectMapper mapper, byte[] json) {
    return read(mapper, json, HotWire::result);
  }

  private static TaskResult result(JsonParser p) throws IOException {
    Integer v = null;
    String id = null;
    int attempt = 0;
    Outcome outcome = null;
    ErrorInfo error = null;
    Long retryAfterMs = null;
    long startedAt = 0;
    long finishedAt = 0;
    String worker = null;
    String handler = null;
    String nonce = null;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken t = p.currentToken();
      switch (name) {
        case "v" -> v = Fields.integer(p, t);
        case "id" -> id = Fields.string(p, t);
        case "attempt" -> attempt = Fields.integer(p, t);
        case "outcome" -> outcome = outcome(Fields.string(p, t));
        case "error" -> error = t == JsonToken.VALUE_NULL ? null : error(p, t);
        case "retryAfterMs" -> retryAfterMs = Fields.optionalNumber(p, t);
        case "startedAt" -> startedAt = Fields.number(p, t);
        case "finishedAt" -> finishedAt = Fields.number(p, t);
        case "worker" -> worker = Fields.string(p, t);
        case "handler" -> handler = Fields.string(p, t);
        case "nonce" -> nonce = Fields.string(p, t);
        default -> p.skipChildren();
      }
    }
    EnvelopeJson.expect(v != null);
    return new TaskResult(
        v,
        id,
        attempt,
        outcome,
        error,
        retryAfterMs,
        startedAt,
        finishedAt,
        worker,
        handler,
        nonce);
  }

  /** A new task as a {@code tasklane.tasks} record (its {@code type} first). */
  public static byte[] write(ObjectMapper mapper, TaskEnvelope task) {
    return write(mapper, 512, task, EnvelopeJson::write);
  }

  /** A dispatch. */
  public static byte[] write(ObjectMapper mapper, Dispatch d) {
    return write(mapper, 512, d, HotWire::dispatch);
  }

  private static void dispatch(JsonGenerator g, Dispatch d) throws IOException {
    g.writeStartObject();
    g.writeNumberField("v", d.v());
    if (d.task() != null) {
      g.writeFieldName("task");
      EnvelopeJson.write(g, d.task());
    }
    g.writeNumberField("attempt", d.attempt());
    g.writeNumberField("deadline", d.deadline());
    Fields.stringIfSet(g, "routingKey", d.routingKey());
    g.writeNumberField("dispatchedAt", d.dispatchedAt());
    if (d.notBefore() != null) {
      g.writeNumberField("notBefore", d.notBefore());
    }
    Fields.stringIfSet(g, "nonce", d.nonce());
    if (d.slotTolerance() != null) {
      g.writeNumberField("slotTolerance", d.slotTolerance());
    }
    g.writeEndObject();
  }

  /** A task result. */
  public static byte[] write(ObjectMapper mapper, TaskResult r) {
    return write(mapper, 256, r, HotWire::result);
  }

  private static void result(JsonGenerator g, TaskResult r) throws IOException {
    g.writeStartObject();
    g.writeNumberField("v", r.v());
    Fields.stringIfSet(g, "id", r.id());
    g.writeNumberField("attempt", r.attempt());
    Fields.stringIfSet(g, "outcome", r.outcome() == null ? null : r.outcome().name());
    if (r.error() != null) {
      g.writeObjectFieldStart("error");
      Fields.stringIfSet(g, "type", r.error().type());
      Fields.stringIfSet(g, "message", r.error().message());
      Fields.stringIfSet(g, "stack", r.error().stack());
      g.writeEndObject();
    }
    if (r.retryAfterMs() != null) {
      g.writeNumberField("retryAfterMs", r.retryAfterMs());
    }
    g.writeNumberField("startedAt", r.startedAt());
    g.writeNumberField("finishedAt", r.finishedAt());
    Fields.stringIfSet(g, "worker", r.worker());
    Fields.stringIfSet(g, "handler", r.handler());
    Fields.stringIfSet(g, "nonce", r.nonce());
    g.writeEndObject();
  }

  /** Reads one object of a record from its parser. */
  private interface Reader<T> {
    T read(JsonParser p) throws IOException;
  }

  /** Writes one record as one object. */
  private interface Writer<T> {
    void write(JsonGenerator g, T value) throws IOException;
  }

  /** {@code json} read by {@code reader}, or null when it is not one object in the plain shape. */
  private static <T> T read(ObjectMapper mapper, byte[] json, Reader<T> reader) {
    try (JsonParser p = mapper.createParser(json)) {
      return p.nextToken() == JsonToken.START_OBJECT ? reader.read(p) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static <T> byte[] write(ObjectMapper mapper, int size, T value, Writer<T> writer) {
    ByteArrayBuilder out = new ByteArrayBuilder(size);
    try (JsonGenerator g = mapper.createGenerator(out, JsonEncoding.UTF8)) {
      writer.write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static TaskEnvelope envelope(JsonParser p) throws IOException {
    TaskEnvelope task = EnvelopeJson.read(p);
    EnvelopeJson.expect(task != null);
    return task;
  }

  private static Outcome outcome(String name) {
    return name == null ? null : Outcome.valueOf(name);
  }

  private static ErrorInfo error(JsonParser p, JsonToken t) throws IOException {
    EnvelopeJson.expect(t == JsonToken.START_OBJECT);
    String type = null;
    String message = null;
    String stack = null;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken value = p.currentToken();
      switch (name) {
        case "type" -> type = Fields.string(p, value);
        case "message" -> message = Fields.string(p, value);
        case "stack" -> stack = Fields.string(p, value);
        default -> p.skipChildren();
      }
    }
    return new ErrorInfo(type, message, stack);
  }
}
