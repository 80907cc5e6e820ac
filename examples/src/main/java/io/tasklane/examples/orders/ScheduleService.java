package io.tasklane.examples.orders;

import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.outbox.ScheduleRequest;
import io.tasklane.outbox.TaskOutbox;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The demo's recurring schedules, defined and deleted through the outbox in the caller's
 * transaction: a 1-second sweep, a broadcast of 3 shards every 5 seconds and its child, which the
 * scheduler starts once after each broadcast fire whose shards all succeeded (the child's own
 * calendar starts in a year, so it only runs as a child).
 */
@Singleton
public class ScheduleService {
  public static final String SWEEP = "demo.sweep";
  public static final String SHARDS = "demo.shards";
  public static final String CHILD = "demo.child";

  /** Tasks per broadcast fire. */
  public static final int SHARD_COUNT = 3;

  /** The broadcast's period in seconds. */
  public static final int SHARDS_EVERY_S = 5;

  private final TaskOutbox outbox;

  public ScheduleService(TaskOutbox outbox) {
    this.outbox = outbox;
  }

  /** Defines the three schedules (the child first, so the parent never names a missing one). */
  @Transactional
  public void start() {
    outbox.schedule(
        ScheduleRequest.named(CHILD)
            .handler(ScheduleHandlers.CHILD)
            .every("1d")
            .startAt(Instant.now().plus(365, ChronoUnit.DAYS)));
    outbox.schedule(ScheduleRequest.named(SWEEP).handler(ScheduleHandlers.SWEEP).every("1s"));
    outbox.schedule(shards());
  }

  private static ScheduleRequest shards() {
    return ScheduleRequest.named(SHARDS)
        .handler(ScheduleHandlers.SHARD)
        .every(SHARDS_EVERY_S + "s")
        .broadcast(SHARD_COUNT)
        .children(List.of(CHILD));
  }

  /**
   * Deletes the sweep and pauses the broadcast: neither makes a fire after the scheduler has this
   * transaction. The broadcast is paused, not deleted, so that its fires still running finish their
   * chain: a deleted schedule starts no children.
   */
  @Transactional
  public void stopCalendars() {
    outbox.unschedule(SWEEP);
    outbox.schedule(shards().enabled(false));
  }

  /** Deletes the broadcast and its child (once every broadcast fire's child ran). */
  @Transactional
  public void stopChild() {
    outbox.unschedule(SHARDS);
    outbox.unschedule(CHILD);
  }
}
