package io.tasklane.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Type;

/**
 * How payloads become JSON at enqueue and become objects again for the handler: <b>one</b>
 * configuration for both sides, so a custom {@code ObjectMapper} (modules, naming strategy) that
 * wrote a payload also reads it. In a Micronaut application, declare one {@code PayloadCodec} bean:
 * the outbox, {@code @OutboxAsync} and the worker's handler binding all use it; without one they
 * all use {@link #jackson()}.
 *
 * <p>Implementations must be thread-safe. An exception from {@link #encode} is reported to the
 * enqueuing caller as an {@link InvalidTaskException} for field {@code payload} and nothing is
 * written; an exception from {@link #decode} is a permanent failure of the attempt (the payload can
 * never bind) and the dispatch goes to the handler's dead-letter topic.
 */
public interface PayloadCodec {

  /** JSON text of {@code payload} (which may be null: encode it as {@code null}). */
  String encode(Object payload) throws Exception;

  /** The handler's argument of type {@code type} from the JSON {@code payload}. */
  Object decode(JsonNode payload, Type type) throws Exception;

  /** The default: Jackson with Tasklane's wire settings ({@link WireCodec#mapper()}). */
  static PayloadCodec jackson() {
    return jackson(WireCodec.mapper());
  }

  /** Jackson with the application's own configured mapper (modules, naming strategy...). */
  static PayloadCodec jackson(ObjectMapper mapper) {
    return new JacksonPayloadCodec(mapper);
  }
}
