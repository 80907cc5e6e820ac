package io.tasklane.scheduler.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What the scheduler keeps of one schedule, by name, in {@link Stores#SCHEDULES}: the definition in
 * force (null once deleted), the highest version seen, and its timer.
 *
 * @param definition the definition in force, or null when {@code deleted}
 * @param version the highest version applied (a definition's or an unschedule's)
 * @param deleted true after an unschedule: the name remembers {@code version} only
 * @param nextFireAt the fire its timer waits for (a {@link TimerKind#SCHEDULE} entry), or {@link
 *     Fires#NONE} when paused, deleted or past its last fire
 * @param lastFireAt the latest fire made into tasks, or {@link Fires#NONE}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ScheduleState(
    ScheduleDefinition definition,
    long version,
    boolean deleted,
    long nextFireAt,
    long lastFireAt) {

  boolean hasTimer() {
    return nextFireAt != Fires.NONE;
  }

  ScheduleState withTimer(long next, long last) {
    return new ScheduleState(definition, version, deleted, next, last);
  }

  /** JSON through the wire codec's mapper. */
  static final class JsonSerde implements Serde<ScheduleState> {
    @Override
    public Serializer<ScheduleState> serializer() {
      return (topic, value) -> value == null ? null : WireCodec.encode(value);
    }

    @Override
    public Deserializer<ScheduleState> deserializer() {
      return (topic, bytes) -> {
        if (bytes == null) {
          return null;
        }
        try {
          return WireCodec.mapper().readValue(bytes, ScheduleState.class);
        } catch (IOException e) {
          throw new WireFormatException("corrupt schedule in store: " + e.getMessage(), e);
        }
      };
    }
  }
}
