package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.Shard;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the fires of schedules (docs/schedules.md, Overlap and Children): applies the schedule's
 * {@link OverlapPolicy} to a due fire, makes its tasks (one per shard; {@code ALL_WORKERS} counts
 * the handler's live workers), records it in the history, and applies the finished-task notices
 * ({@link ScheduleFireDone}) that the tasks' partitions send back: a fire whose tasks all succeeded
 * starts its children, a finished fire lets a waiting one run. An unsharded fire's task gets the
 * variant of its id that lands in the schedule's own partition ({@link TaskIds#inPartitionOf}) and
 * is admitted there at once ({@link LocalAdmission}); shard tasks, spread over the partitions, go
 * through {@code <ns>.tasks}. A fire's task of a schedule with an {@code orderingKey} or {@code
 * concurrencyKey} (routing {@code ONE}) carries that key, so it is routed by it, into the key's
 * lane with the handler's other tasks of the key, and is admitted here only when the key lives
 * here. Used on the stream thread of the schedule's partition; its records go out with the stream
 * task's next commit, with the store.
 */
final class FireRunner {
  private static final Logger LOG = LoggerFactory.getLogger(FireRunner.class);

  /**
   * Admits a fire's task in the partition that makes it, when its routing key belongs there. Called
   * on the stream thread, inside the fire's processing or punctuation.
   */
  @FunctionalInterface
  public interface LocalAdmission {
    /** Admits {@code task} here and returns true, or returns false: it goes through the topic. */
    boolean admitHere(TaskEnvelope task, long now);

    /** Admits nothing here: every fire's task goes through {@code <ns>.tasks}. */
    LocalAdmission NONE = (task, now) -> false;
  }

  private final Engine engine;
  private final Outputs out;
  private final LocalAdmission local;

  FireRunner(Engine engine, Outputs out, LocalAdmission local) {
    this.engine = engine;
    this.out = out;
    this.local = local;
  }

  /** The history entry of a fire about to be started. */
  static FireRecord fire(String fireId, long fireAt, FireRecord.Kind kind, ScheduleTrigger t) {
    return FireRecord.noTask(
        fireId,
        fireAt,
        kind,
        t == null ? 0 : t.depth(),
        t == null ? null : t.parentFire(),
        FireRecord.Outcome.QUEUED,
        null);
  }

  /** Starts {@code fire} of schedule {@code s} as its overlap policy says; the new state. */
  ScheduleState start(ScheduleState s, FireRecord fire, long now) {
    ScheduleDefinition d = s.definition();
    s = runWaitingIfIdle(s, now);
    if (!d.enabled()) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_PAUSED_SKIPPED);
      return s.withFires(FireHistory.put(s.fires(), fire.skipped("paused")), s.waiting());
    }
    List<FireRecord> running = FireHistory.running(s.fires());
    boolean waits = waitingFire(s) != null;
    OverlapPolicy.Decision decision = OverlapPolicy.of(d.overlap()).decide(running, waits);
    switch (decision.action()) {
      case SKIP -> {
        engine
            .metrics()
            .count(
                waits && d.overlap() == ScheduleDefinition.Overlap.QUEUE
                    ? SchedulerEvent.SCHEDULE_QUEUE_FULL
                    : SchedulerEvent.SCHEDULE_OVERLAP_SKIPPED);
        return s.withFires(
            FireHistory.put(s.fires(), fire.skipped(decision.reason())), s.waiting());
      }
      case WAIT -> {
        engine.metrics().count(SchedulerEvent.SCHEDULE_QUEUED);
        return s.withFires(
            FireHistory.put(s.fires(), fire.queued(decision.reason())), fire.fireId());
      }
      case REPLACE -> {
        List<FireRecord> fires = s.fires();
        for (FireRecord r : running) {
          cancel(
              d.name(), r, "replaced by fire " + fire.fireId() + " of schedule " + d.name(), now);
          fires = FireHistory.put(fires, r.withReason("replaced by fire " + fire.fireId()));
        }
        engine.metrics().count(SchedulerEvent.SCHEDULE_REPLACED);
        return run(s.withFires(fires, s.waiting()), fire, now);
      }
      default -> {
        return run(s, fire, now);
      }
    }
  }

  /** A task of one of the schedule's fires finished: the new state (unchanged when unknown). */
  ScheduleState done(ScheduleState s, ScheduleFireDone notice, long now) {
    FireRecord f = FireHistory.find(s.fires(), notice.fireId());
    FireRecord next =
        f == null ? null : f.taskDone(notice.taskId(), notice.state(), notice.reason());
    if (next == null || next == f) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_FIRE_DONE_UNKNOWN);
      return s;
    }
    engine.metrics().count(SchedulerEvent.SCHEDULE_FIRE_DONE);
    if (f.outcome() != FireRecord.Outcome.SUCCEEDED
        && next.outcome() == FireRecord.Outcome.SUCCEEDED
        && s.definition() != null) {
      startChildren(s.definition(), next, now);
    }
    ScheduleState updated = s.withFires(FireHistory.put(s.fires(), next), s.waiting());
    return s.definition() == null ? updated : runWaitingIfIdle(updated, now);
  }

  /**
   * A task of fire {@code f}, kept in the {@link FireLog}, finished: a running fire of an {@code
   * ALLOW} schedule, or a finished fire whose DEAD task was retried. Returns the fire's new record,
   * or null when the notice changes nothing. Starts the children when the fire now succeeded; the
   * overlap queue does not change, as no overlap policy watches such a fire.
   */
  FireRecord doneLogged(ScheduleState s, FireRecord f, ScheduleFireDone notice, long now) {
    FireRecord next = f.taskDone(notice.taskId(), notice.state(), notice.reason());
    if (next == f) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_FIRE_DONE_UNKNOWN);
      return null;
    }
    engine.metrics().count(SchedulerEvent.SCHEDULE_FIRE_DONE);
    if (next.equals(f)) {
      return null;
    }
    if (f.outcome() != FireRecord.Outcome.SUCCEEDED
        && next.outcome() == FireRecord.Outcome.SUCCEEDED
        && s.definition() != null
        && !s.deleted()) {
      startChildren(s.definition(), next, now);
    }
    return next;
  }

  /**
   * The waiting fire runs when no watched fire runs ({@code overlap: QUEUE}, or a schedule changed
   * from it while a fire waited): the new state, or {@code s} when nothing waits or it is deleted.
   */
  ScheduleState runWaiting(ScheduleState s, long now) {
    return s.waiting() == null || s.definition() == null ? s : runWaitingIfIdle(s, now);
  }

  private FireRecord waitingFire(ScheduleState s) {
    return s.waiting() == null ? null : FireHistory.find(s.fires(), s.waiting());
  }

  /** The waiting fire runs once no fire runs ({@code overlap: QUEUE}). */
  private ScheduleState runWaitingIfIdle(ScheduleState s, long now) {
    FireRecord w = waitingFire(s);
    if (w == null) {
      return s.waiting() == null ? s : s.withFires(s.fires(), null);
    }
    if (!FireHistory.running(s.fires()).isEmpty()) {
      return s;
    }
    return run(s.withFires(s.fires(), null), w.withReason(null), now);
  }

  private ScheduleState run(ScheduleState s, FireRecord fire, long now) {
    ScheduleDefinition d = s.definition();
    int shards = shards(d);
    List<String> ids = new ArrayList<>(shards);
    boolean one = d.routing() == ScheduleDefinition.Routing.ONE;
    for (int i = 0; i < shards; i++) {
      int index = one ? -1 : i;
      // an unsharded calendar fire's task id is its fire id, forScheduleFire(name, fireAt, -1)
      // (ScheduleMachine#fire): not derived a second time
      String id =
          fire.kind() != FireRecord.Kind.CALENDAR
              ? TaskIds.forFireShard(fire.fireId(), index)
              : one ? fire.fireId() : TaskIds.forScheduleFire(d.name(), fire.fireAt(), index);
      ids.add(one ? TaskIds.inPartitionOf(id, d.name(), engine.settings().partitions()) : id);
    }
    List<String> keys =
        ShardKeys.spread(
            ids,
            engine.settings().partitions(),
            engine.workers().partitions(d.handler()).orElse(engine.settings().partitions()));
    List<FireRecord.FireTask> made = new ArrayList<>(shards);
    for (int i = 0; i < shards; i++) {
      Shard shard = d.routing() == ScheduleDefinition.Routing.ONE ? null : new Shard(i, shards);
      String key = keys.get(i).equals(ids.get(i)) ? null : keys.get(i);
      TaskEnvelope task = task(d, fire, ids.get(i), key, shard, now);
      if (!one || !local.admitHere(task, now)) {
        out.task(task, now);
      }
      made.add(new FireRecord.FireTask(ids.get(i), task.routingKey(), null));
      engine.metrics().count(SchedulerEvent.SCHEDULE_FIRED);
    }
    return s.withFires(FireHistory.put(s.fires(), fire.running(made, now)), s.waiting());
  }

  private int shards(ScheduleDefinition d) {
    return switch (d.routing()) {
      case ONE -> 1;
      case BROADCAST -> d.shards();
      case ALL_WORKERS -> {
        var live = engine.workers().liveConsumers(d.handler());
        if (live.isEmpty()) {
          LOG.warn(
              "schedule {}: live workers of handler {} unknown; ALL_WORKERS fire makes 1 task",
              d.name(),
              d.handler());
          engine.metrics().count(SchedulerEvent.SCHEDULE_WORKERS_UNKNOWN);
          yield 1;
        }
        yield Math.max(1, Math.min(live.getAsInt(), ScheduleValidator.MAX_SHARDS));
      }
    };
  }

  private static TaskEnvelope task(
      ScheduleDefinition d, FireRecord fire, String id, String key, Shard shard, long now) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(ScheduleMachine.HEADER_SCHEDULE, d.name());
    headers.put(ScheduleMachine.HEADER_FIRE_TIME, String.valueOf(fire.fireAt()));
    headers.put(ScheduleMachine.HEADER_FIRE_ID, fire.fireId());
    if (fire.parentFire() != null) {
      headers.put(ScheduleMachine.HEADER_PARENT_FIRE, fire.parentFire());
    }
    return TaskEnvelope.builder()
        .id(id)
        // routing ONE (no shard): the schedule's lane keys; a shard task: its spreading key
        .orderingKey(shard == null ? d.orderingKey() : key)
        .options(shard == null ? lane(d) : TaskOptions.none())
        .handler(d.handler())
        .payload(d.payload())
        .dueAt(fire.kind() == FireRecord.Kind.CALENDAR ? fire.fireAt() : now)
        .maxAttempts(d.maxAttempts())
        .timeoutMs(d.timeoutMs())
        .backoff(d.backoff())
        .headers(headers)
        .createdAt(now)
        .shard(shard)
        .build();
  }

  private static TaskOptions lane(ScheduleDefinition d) {
    return TaskOptions.builder().concurrencyKey(d.concurrencyKey()).priority(d.priority()).build();
  }

  /** Cancels the unfinished tasks of a fire through the ordinary cancel path. */
  private void cancel(String name, FireRecord fire, String reason, long now) {
    for (FireRecord.FireTask t : fire.tasks()) {
      if (t.state() == null) {
        out.control(t.routingKey(), CancelCommand.of(t.id(), reason, now, "schedule:" + name), now);
      }
    }
  }

  private void startChildren(ScheduleDefinition d, FireRecord fire, long now) {
    if (d.children().isEmpty()) {
      return;
    }
    int depth = fire.depth() + 1;
    if (depth > ScheduleValidator.MAX_CHILD_DEPTH) {
      LOG.warn(
          "schedule {}: fire {} is {} levels deep; its children are not started (limit {})",
          d.name(),
          fire.fireId(),
          fire.depth(),
          ScheduleValidator.MAX_CHILD_DEPTH);
      engine.metrics().count(SchedulerEvent.SCHEDULE_CHILD_TOO_DEEP);
      return;
    }
    for (String child : d.children()) {
      out.scheduleRecord(
          child, ScheduleTrigger.child(child, d.name(), fire.fireId(), depth, now), now);
      engine.metrics().count(SchedulerEvent.SCHEDULE_CHILD_STARTED);
    }
  }
}
