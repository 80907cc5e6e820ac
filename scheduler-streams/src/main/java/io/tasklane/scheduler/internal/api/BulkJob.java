package io.tasklane.scheduler.internal.api;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.TaskState;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One bulk action over the tasks a filter matched at {@code asOf}, and its progress: read by {@code
 * GET /api/jobs/{job}} on any thread while {@link BulkJobs} runs it on its own thread (the counts
 * are atomic, the state volatile).
 */
final class BulkJob {
  /** The bulk actions, each with the states it applies to and its control command. */
  enum Action {
    RETRY_DEAD(EnumSet.of(TaskState.DEAD)),
    DISCARD(EnumSet.of(TaskState.DEAD)),
    CANCEL(
        EnumSet.complementOf(EnumSet.of(TaskState.SUCCEEDED, TaskState.DEAD, TaskState.CANCELLED)));

    final Set<TaskState> appliesTo;

    Action(Set<TaskState> appliesTo) {
      this.appliesTo = appliesTo;
    }

    String path() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Action of(String path) {
      for (Action a : values()) {
        if (a.path().equals(path)) {
          return a;
        }
      }
      throw new BadQueryException("action", "must be retry-dead, discard or cancel");
    }

    ControlRecord command(String id, long now, String actor, String job) {
      return switch (this) {
        case RETRY_DEAD -> ControlCommand.RetryDead.of(id, now, actor);
        case DISCARD -> ControlCommand.Discard.of(id, now, actor);
        case CANCEL -> CancelCommand.of(id, "bulk job " + job, now, actor);
      };
    }
  }

  enum State {
    RUNNING,
    DONE,
    FAILED
  }

  final String id;
  final Action action;
  final TaskFilter filter;
  final long asOf;
  final String actor;
  final long startedAt;
  final AtomicLong matched = new AtomicLong();
  final AtomicLong applied = new AtomicLong();
  final AtomicLong ignored = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  volatile State state = State.RUNNING;
  volatile long finishedAt;
  volatile String error;

  BulkJob(String id, Action action, TaskFilter filter, long asOf, String actor, long startedAt) {
    this.id = id;
    this.action = action;
    this.filter = filter;
    this.asOf = asOf;
    this.actor = actor;
    this.startedAt = startedAt;
  }

  JobResponse json() {
    long f = finishedAt;
    return new JobResponse(
        id,
        action.path(),
        filter.shown(), // a payload filter's value masked
        asOf,
        JobResponse.iso(asOf),
        state.name(),
        matched.get(),
        applied.get(),
        ignored.get(),
        failed.get(),
        startedAt,
        JobResponse.iso(startedAt),
        f == 0 ? null : f,
        JobResponse.iso(f),
        actor,
        error);
  }
}
