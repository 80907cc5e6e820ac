package io.tasklane.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Type;
import java.util.Objects;

/** {@link PayloadCodec#jackson(ObjectMapper)}: both directions through one mapper. */
record JacksonPayloadCodec(ObjectMapper mapper) implements PayloadCodec {
  JacksonPayloadCodec {
    Objects.requireNonNull(mapper, "mapper");
  }

  @Override
  public String encode(Object payload) throws Exception {
    return mapper.writeValueAsString(payload);
  }

  @Override
  public Object decode(JsonNode payload, Type type) {
    return mapper.convertValue(payload, mapper.getTypeFactory().constructType(type));
  }
}
