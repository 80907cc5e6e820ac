package io.tasklane.core;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde of one record type through {@link WireCodec}. Deserialization throws {@link
 * WireFormatException} on bad bytes; callers decide (DLT, skip and count) by that type.
 */
public final class WireSerde<T extends Versioned> implements Serde<T> {
  private final Class<T> type;

  private WireSerde(Class<T> type) {
    this.type = type;
  }

  public static <T extends Versioned> WireSerde<T> of(Class<T> type) {
    return new WireSerde<>(type);
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, value) -> value == null ? null : WireCodec.encode(value);
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, bytes) -> bytes == null ? null : WireCodec.decode(bytes, type);
  }
}
