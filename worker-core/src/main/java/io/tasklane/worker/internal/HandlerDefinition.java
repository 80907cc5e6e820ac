package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.worker.TaskContext;
import java.lang.reflect.Type;
import java.util.function.Supplier;

/**
 * A discovered handler: its name, where it came from (for error messages), how to bind a payload (a
 * failure dead-letters the dispatch and answers PERMANENT_FAILURE) and how to call it.
 */
record HandlerDefinition(String name, String source, Binder binder, Invoker invoker) {

  /** Binds the JSON payload to what {@link Invoker} takes; runs on a pool thread. */
  @FunctionalInterface
  interface Binder {
    Object bind(JsonNode payload);
  }

  /** Calls the handler on the current thread. */
  @FunctionalInterface
  interface Invoker {
    void invoke(Object payload, TaskContext context) throws Exception;
  }

  /**
   * A handler whose payload is JSON bound to {@code payloadType} by the application's {@link
   * PayloadCodec} (the one the enqueuing side encodes with), looked up on first use.
   */
  static HandlerDefinition of(
      String name, String source, Type payloadType, Supplier<PayloadCodec> codec, Invoker invoker) {
    return new HandlerDefinition(
        name, source, json -> convert(codec.get(), json, payloadType), invoker);
  }

  /**
   * Decodes a record of this handler's topic; a {@link WireFormatException} when it is not a
   * dispatch, lacks its task, task id or routing key, or is one for another handler.
   */
  Dispatch decode(byte[] value) {
    Dispatch d = WireCodec.decodeDispatch(value);
    if (d.task() == null || d.task().id() == null || d.routingKey() == null) {
      throw new WireFormatException("dispatch lacks its task, task id or routing key");
    }
    if (!name.equals(d.task().handler())) {
      throw new WireFormatException(
          "dispatch for handler '" + d.task().handler() + "' on the topic of " + name);
    }
    return d;
  }

  /** Binds a JSON payload to the handler's type. */
  Object bind(JsonNode payload) {
    return binder.bind(payload);
  }

  static Object convert(PayloadCodec codec, JsonNode payload, Type type) {
    try {
      return codec.decode(payload, type);
    } catch (Exception e) {
      throw new WireFormatException(
          "payload does not bind to " + type.getTypeName() + ": " + e.getMessage(), e);
    }
  }
}
