package io.tasklane.scheduler.internal.schedules;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What the scheduler keeps of one schedule, by name, in {@link Stores#SCHEDULES}: the definition in
 * force (null once deleted), the highest version seen, its timer and the fires its overlap policy
 * watches. Its other fires (finished ones, and running ones of an {@code ALLOW} or deleted
 * schedule) live in the {@link FireLog} ({@link Stores#SCHEDULE_FIRES}), so that the state a fire
 * rewrites stays small however many fires run.
 *
 * @param definition the definition in force, or null when {@code deleted}
 * @param version the highest version applied (a definition's or an unschedule's)
 * @param deleted true after an unschedule: the name remembers {@code version} and its history only,
 *     until its timer purges it
 * @param nextFireAt the fire its timer waits for (a {@link TimerKind#SCHEDULE} entry), or {@link
 *     Fires#NONE} past its last fire; once deleted, when its timer purges it (the retention after
 *     the deletion; none for a schedule deleted before deleted schedules were purged)
 * @param lastFireAt the latest calendar fire handled, or {@link Fires#NONE}
 * @param fires the watched fires, oldest first ({@link FireHistory}): the running ones of a {@code
 *     SKIP_IF_RUNNING}, {@code QUEUE} or {@code REPLACE} schedule and the waiting one (a fire that
 *     finishes, or runs under {@code ALLOW}, moves to the {@link FireLog} when the state is
 *     written, {@link FireLog#detached}; a state of an older layout may still hold such fires until
 *     its next write)
 * @param waiting the id of the fire waiting in {@code fires} ({@code overlap: QUEUE}), or null
 * @param logged how many fires of the schedule the {@link FireLog} holds (0 in a state of an older
 *     layout), which tells it when to prune
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScheduleState(
    ScheduleDefinition definition,
    long version,
    boolean deleted,
    long nextFireAt,
    long lastFireAt,
    List<FireRecord> fires,
    String waiting,
    int logged) {

  public ScheduleState {
    fires = fires == null ? List.of() : List.copyOf(fires);
  }

  ScheduleState(
      ScheduleDefinition definition,
      long version,
      boolean deleted,
      long nextFireAt,
      long lastFireAt) {
    this(definition, version, deleted, nextFireAt, lastFireAt, List.of(), null, 0);
  }

  boolean hasTimer() {
    return nextFireAt != Fires.NONE;
  }

  ScheduleState withTimer(long next, long last) {
    return new ScheduleState(definition, version, deleted, next, last, fires, waiting, logged);
  }

  ScheduleState withFires(List<FireRecord> nextFires, String nextWaiting) {
    return new ScheduleState(
        definition, version, deleted, nextFireAt, lastFireAt, nextFires, nextWaiting, logged);
  }

  /**
   * This state with {@code open} as its fires, the others moved to the log, which holds {@code n}.
   */
  ScheduleState withLog(List<FireRecord> open, int n) {
    return new ScheduleState(
        definition, version, deleted, nextFireAt, lastFireAt, open, waiting, n);
  }

  /**
   * This state's watched fires, waiting fire and log count carried over to a new definition or a
   * deletion (its logged fires stay in the log).
   */
  ScheduleState keeping(ScheduleState previous) {
    return previous == null
        ? this
        : new ScheduleState(
            definition,
            version,
            deleted,
            nextFireAt,
            lastFireAt,
            previous.fires,
            previous.waiting,
            previous.logged);
  }

  /**
   * The stored form ({@link ScheduleStateCodec}): binary, the definition as JSON; a state of the
   * earlier JSON form is still read. Stateless (its cache of encoded definitions is per thread).
   */
  public static final class StoreSerde implements Serde<ScheduleState> {
    @Override
    public Serializer<ScheduleState> serializer() {
      return (topic, value) -> value == null ? null : ScheduleStateCodec.encode(value);
    }

    @Override
    public Deserializer<ScheduleState> deserializer() {
      return (topic, bytes) -> bytes == null ? null : ScheduleStateCodec.decode(bytes);
    }
  }
}
