package io.tasklane.scheduler.internal.lifecycle;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** The serde of {@link TaskRecord} in the tasks store: {@link TaskRecordCodec}. */
final class TaskRecordSerde implements Serde<TaskRecord> {
  @Override
  public Serializer<TaskRecord> serializer() {
    return (topic, value) -> value == null ? null : TaskRecordCodec.encode(value);
  }

  @Override
  public Deserializer<TaskRecord> deserializer() {
    return (topic, bytes) -> bytes == null ? null : TaskRecordCodec.decode(bytes);
  }
}
