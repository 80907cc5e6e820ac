package io.tasklane.outbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tasklane.core.WireCodec;

/**
 * Turns a payload object into the JSON text stored in the outbox and handed to the handler.
 * Implementations must be thread-safe. Any exception thrown by {@link #encode} is reported to the
 * caller as an {@link io.tasklane.core.InvalidTaskException} for field {@code payload}, and nothing
 * is written.
 */
@FunctionalInterface
public interface PayloadCodec {

  /** JSON text of {@code payload} (which may be null: encode it as {@code null}). */
  String encode(Object payload) throws Exception;

  /** The default: Jackson with Tasklane's wire settings ({@link WireCodec#mapper()}). */
  static PayloadCodec jackson() {
    return jackson(WireCodec.mapper());
  }

  /** Jackson with the application's own configured mapper (modules, naming strategy...). */
  static PayloadCodec jackson(ObjectMapper mapper) {
    return mapper::writeValueAsString;
  }
}
