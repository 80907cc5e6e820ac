package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.worker.TaskContext;

/**
 * A discovered handler: its name, where it came from (for error messages), the payload type and how
 * to call it.
 */
record HandlerDefinition(String name, String source, JavaType payloadType, Invoker invoker) {

  /** Calls the handler on the current thread. */
  @FunctionalInterface
  interface Invoker {
    void invoke(Object payload, TaskContext context) throws Exception;
  }

  /** Binds a JSON payload to the handler's type. */
  Object bind(JsonNode payload) {
    try {
      return WireCodec.mapper().convertValue(payload, payloadType);
    } catch (IllegalArgumentException e) {
      throw new WireFormatException(
          "payload does not bind to " + payloadType + ": " + e.getMessage(), e);
    }
  }
}
