package io.tasklane.scheduler.internal;

import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** JSON serde of {@link TaskRecord} through the wire codec's mapper. */
final class TaskRecordSerde implements Serde<TaskRecord> {
  @Override
  public Serializer<TaskRecord> serializer() {
    return (topic, value) -> value == null ? null : WireCodec.encode(value);
  }

  @Override
  public Deserializer<TaskRecord> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      try {
        return WireCodec.mapper().readValue(bytes, TaskRecord.class);
      } catch (IOException e) {
        throw new WireFormatException("corrupt task record in store: " + e.getMessage(), e);
      }
    };
  }
}
