package io.tasklane.examples.orders;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;

/**
 * The handlers of the demo's recurring schedules ({@link ScheduleService}). Each writes one effect
 * row in its transaction with the fire instant as {@code ref} (the {@code tasklane.fire-time}
 * header the scheduler puts on every fire's task), so the demo can count fires, duplicates and
 * early starts.
 */
@Singleton
public class ScheduleHandlers {
  public static final String SWEEP = "schedule.sweep";
  public static final String SHARD = "schedule.shard";
  public static final String CHILD = "schedule.child";

  /** The 1-second sweep: one effect per fire. */
  @TaskHandler(SWEEP)
  public void sweep(JsonNode payload, TaskContext ctx) throws Exception {
    record(ctx, SWEEP);
  }

  /** One shard of a broadcast fire: effect kind {@code schedule.shard.<index>}. */
  @TaskHandler(SHARD)
  public void shard(JsonNode payload, TaskContext ctx) throws Exception {
    int index = ctx.shard().orElseThrow(() -> new IllegalStateException("not a shard")).index();
    record(ctx, SHARD + "." + index);
  }

  /** The child schedule, started once after every shard of a parent fire succeeded. */
  @TaskHandler(CHILD)
  public void child(JsonNode payload, TaskContext ctx) throws Exception {
    record(ctx, CHILD);
  }

  private static void record(TaskContext ctx, String kind) throws Exception {
    long started = System.currentTimeMillis();
    String at = ctx.headers().get(ReservedHeaders.FIRE_TIME);
    long fireAt = at == null ? 0 : Long.parseLong(at);
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, kind, fireAt, started);
          return null;
        });
  }
}
