package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.worker.TaskContext;

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

  /** A handler whose payload is JSON bound to {@code payloadType} with Tasklane's codec. */
  static HandlerDefinition of(String name, String source, JavaType payloadType, Invoker invoker) {
    return new HandlerDefinition(name, source, json -> convert(json, payloadType), invoker);
  }

  /** Binds a JSON payload to the handler's type. */
  Object bind(JsonNode payload) {
    return binder.bind(payload);
  }

  static Object convert(JsonNode payload, JavaType type) {
    try {
      return WireCodec.mapper().convertValue(payload, type);
    } catch (IllegalArgumentException e) {
      throw new WireFormatException("payload does not bind to " + type + ": " + e.getMessage(), e);
    }
  }
}
