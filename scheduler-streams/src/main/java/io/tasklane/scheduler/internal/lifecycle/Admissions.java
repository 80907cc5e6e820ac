package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import java.util.LinkedHashSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission, part of the {@link TaskLifecycle}: a validated task is deduplicated by id, then given
 * a timer, dispatched (or queued) when due, or set WAITING on its dependencies. Used on the stream
 * task's thread only.
 */
final class Admissions {
  private static final Logger LOG = LoggerFactory.getLogger(Admissions.class);

  private final TaskLifecycle owner;
  private final TaskStore store;
  private final Engine engine;

  Admissions(TaskLifecycle owner, TaskStore store) {
    this.owner = owner;
    this.store = store;
    this.engine = owner.engine;
  }

  /** Admits a validated task: dedupe by id, then a timer, a dispatch or a wait. */
  void admit(TaskEnvelope task, long now) {
    String id = task.id();
    TaskRecord previous = store.get(id);
    if (previous != null && previous.task() != null) {
      refuseDuplicate(previous, task, now);
      return;
    }
    if (previous != null && previous.state() == TaskState.CANCELLED) {
      TaskRecord.Edit e = previous.edit();
      e.task = task;
      e.updatedAt = now;
      owner.commit(id, previous, e);
      engine.metrics().count(SchedulerEvent.CANCELLED_BEFORE_ARRIVAL);
      owner.transitions.told(task, id, TaskState.CANCELLED, previous.reason(), now, false);
      return;
    }
    TaskRecord.Edit e = (previous == null ? TaskRecord.empty() : previous).edit();
    e.task = task;
    if (task.dependsOn().isEmpty()) {
      owner.transitions.schedule(e, TaskState.PENDING, task.dueAt(), now);
    } else {
      e.state = TaskState.WAITING;
      e.noTimer();
      e.dueAt = task.dueAt();
      e.updatedAt = now;
      e.waitingOn.clear();
      e.waitingOn.addAll(new LinkedHashSet<>(task.dependsOn()));
      for (String dep : e.waitingOn) {
        owner.out.control(dep, ControlCommand.Await.of(dep, id, task.routingKey()), now);
      }
    }
    engine.metrics().count(SchedulerEvent.ADMITTED);
    owner.commit(id, previous, e);
  }

  /**
   * The first record of a task id wins: ids are stable (a keyed task's id is derived from its
   * handler and key) and the relay may replay records, so a repeat is dropped. A repeat whose
   * content differs (a keyed task enqueued again with new data, or a forged record) is also counted
   * ({@link SchedulerEvent#DUPLICATE_CONFLICT}), kept in the record for the status API and logged
   * at WARN the first time for this task. The notices of a finished task go through {@code
   * <ns>.tasks}, never applied here, as the admission may run inside a fire of the very schedule.
   */
  private void refuseDuplicate(TaskRecord previous, TaskEnvelope task, long now) {
    String id = task.id();
    engine.metrics().count(SchedulerEvent.DUPLICATE);
    if (previous.state() != null && previous.state().isTerminal()) {
      // A schedule fire that derived an id it had made before (a reused trigger id) waits for
      // this task: tell it again, or it would count as running for ever.
      owner.transitions.told(previous.task(), id, previous.state(), previous.reason(), now, false);
    }
    if (!RefusedDuplicate.conflicts(previous.task(), task)) {
      owner.reassert(id, previous);
      return;
    }
    engine.metrics().count(SchedulerEvent.DUPLICATE_CONFLICT);
    if (previous.duplicatesRefused() == 0) {
      LOG.warn(
          "task {}: a record with the same id and different content was refused (the first record"
              + " of an id wins; handler {} vs stored {}, dueAt {} vs {}, createdAt {}, source {});"
              + " further ones are counted in the task's duplicatesRefused",
          id,
          task.handler(),
          previous.task().handler(),
          task.dueAt(),
          previous.task().dueAt(),
          task.createdAt(),
          task.source());
    }
    TaskRecord.Edit e = previous.edit();
    e.duplicatesRefused =
        previous.duplicatesRefused() == Integer.MAX_VALUE
            ? Integer.MAX_VALUE
            : previous.duplicatesRefused() + 1;
    e.lastRefusedDuplicate = RefusedDuplicate.of(task, now);
    owner.commit(id, previous, e);
  }
}
