package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.PayloadCodec;
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
