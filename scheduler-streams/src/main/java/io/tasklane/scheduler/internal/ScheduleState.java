package io.tasklane.scheduler.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.util.List;
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
 * @param lastFireAt the latest calendar fire handled, or {@link Fires#NONE}
 * @param fires the fire history, oldest first ({@link FireHistory}): running and waiting fires and
 *     the last {@link FireHistory#KEEP} finished ones
 * @param waiting the id of the fire waiting in {@code fires} ({@code overlap: QUEUE}), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ScheduleState(
    ScheduleDefinition definition,
    long version,
    boolean deleted,
    long nextFireAt,
    long lastFireAt,
    List<FireRecord> fires,
    String waiting) {

  ScheduleState {
    fires = fires == null ? List.of() : List.copyOf(fires);
  }

  ScheduleState(
      ScheduleDefinition definition,
      long version,
      boolean deleted,
      long nextFireAt,
      long lastFireAt) {
    this(definition, version, deleted, nextFireAt, lastFireAt, List.of(), null);
  }

  boolean hasTimer() {
    return nextFireAt != Fires.NONE;
  }

  ScheduleState withTimer(long next, long last) {
    return new ScheduleState(definition, version, deleted, next, last, fires, waiting);
  }

  ScheduleState withFires(List<FireRecord> nextFires, String nextWaiting) {
    return new ScheduleState(
        definition, version, deleted, nextFireAt, lastFireAt, nextFires, nextWaiting);
  }

  /** This state's history and waiting fire carried over to a new definition or a deletion. */
  ScheduleState keeping(ScheduleState previous) {
    return previous == null ? this : withFires(previous.fires, previous.waiting);
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
