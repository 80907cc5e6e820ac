package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.ErrorInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Dependency-cycle detection by edge chasing: an {@code await} that reaches a WAITING task is
 * passed on to that task's own open dependencies with the waiter appended to its path; a task that
 * finds itself on the path closes a cycle. Why this finds every cycle: docs/scheduler-streams.md.
 * Part of the {@link TaskLifecycle}; used on one stream thread only.
 */
final class CycleProbes {
  /**
   * How many probe initiators a WAITING task remembers. A probe is forwarded once per initiator,
   * which keeps the probes of one admission linear in the edges instead of the paths of a DAG; past
   * this bound an initiator may be forwarded twice (more traffic, never a missed cycle).
   */
  static final int MAX_REMEMBERED_INITIATORS = 256;

  static final String ERROR_TYPE = "dependency-cycle";

  private final TaskLifecycle owner;

  CycleProbes(TaskLifecycle owner) {
    this.owner = owner;
  }

  /**
   * The cycle {@code await} closes at task {@code id}, in wait order from {@code id} back to it
   * ({@code [D, X, W, D]}), or null when {@code id} is not on the probe's path.
   */
  static List<String> cycle(String id, ControlCommand.Await await) {
    if (id.equals(await.waiterId())) {
      return List.of(id, id);
    }
    int at = await.path().indexOf(id);
    if (at < 0) {
      return null;
    }
    List<String> cycle = new ArrayList<>(await.path().subList(at, await.path().size()));
    cycle.add(await.waiterId());
    cycle.add(id);
    return cycle;
  }

  /** WAITING task {@code id} is on a cycle: DEAD, and its waiters (the cycle's others) told. */
  void fail(TaskRecord.Edit e, String id, List<String> cycle, long now) {
    String reason = "dependency cycle: " + String.join(" → ", cycle);
    owner.transitions.dead(e, id, new ErrorInfo(ERROR_TYPE, reason, null), reason, now);
    owner.engine.metrics().count(SchedulerEvent.DEPENDENCY_CYCLE);
  }

  /** Passes {@code await} on from WAITING task {@code id} to each of its open dependencies. */
  void forward(TaskRecord.Edit e, String id, ControlCommand.Await await, long now) {
    List<String> path = new ArrayList<>(await.path());
    path.add(await.waiterId());
    if (path.size() > ControlCommand.Await.MAX_PROBE_PATH) {
      owner.engine.metrics().count(SchedulerEvent.DEPENDENCY_PROBE_DROPPED);
      return;
    }
    String initiator = path.get(0);
    if (e.probes.contains(initiator)) {
      return;
    }
    e.probes.add(initiator);
    while (e.probes.size() > MAX_REMEMBERED_INITIATORS) {
      e.probes.remove(0);
    }
    for (String dep : e.waitingOn) {
      owner.out.control(dep, ControlCommand.Await.probe(dep, id, e.task.routingKey(), path), now);
    }
  }
}
