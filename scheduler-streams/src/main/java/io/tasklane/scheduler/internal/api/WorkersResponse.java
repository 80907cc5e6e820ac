package io.tasklane.scheduler.internal.api;

import io.tasklane.core.WorkerHeartbeat;
import io.tasklane.scheduler.internal.ops.WorkerRegistry;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/workers}: every worker process of the namespace as its heartbeats show it.
 *
 * @param workers the workers, live first, then by id (schema {@code Worker} in {@code openapi.yml})
 */
public record WorkersResponse(List<Worker> workers) {
  /** The answer of everything {@code registry} knows, judged as of its clock. */
  static WorkersResponse of(WorkerRegistry registry) {
    long now = registry.now();
    return new WorkersResponse(
        registry.all().stream().map(s -> Worker.of(s, registry.live(s, now))).toList());
  }

  /**
   * One worker process.
   *
   * @param id its id (one per process start)
   * @param name its configured name
   * @param host the host it runs on
   * @param pid its process id
   * @param version the Tasklane version it runs
   * @param startedAt when it started
   * @param startedAtIso the same in ISO-8601 UTC
   * @param lastSeenAt when its last heartbeat came
   * @param lastSeenAtIso the same in ISO-8601 UTC
   * @param heartbeatIntervalMs how often it sends one
   * @param live whether its heartbeats still come (within the lost-heartbeats bound)
   * @param holdsDispatches whether it holds a dispatch until its {@code notBefore}
   * @param handlers the handlers it consumes, with what runs now
   */
  public record Worker(
      String id,
      String name,
      String host,
      long pid,
      String version,
      long startedAt,
      String startedAtIso,
      long lastSeenAt,
      String lastSeenAtIso,
      long heartbeatIntervalMs,
      boolean live,
      boolean holdsDispatches,
      List<Handler> handlers) {
    static Worker of(WorkerRegistry.Seen s, boolean live) {
      WorkerHeartbeat b = s.beat();
      return new Worker(
          b.id(),
          b.name(),
          b.host(),
          b.pid(),
          b.version(),
          b.startedAt(),
          Instant.ofEpochMilli(b.startedAt()).toString(),
          s.lastSeenAt(),
          Instant.ofEpochMilli(s.lastSeenAt()).toString(),
          b.intervalMs(),
          live,
          b.holdsDispatches(),
          b.handlers().stream().map(Handler::of).toList());
    }
  }

  /**
   * One handler of a worker.
   *
   * @param name the handler
   * @param concurrency how many of its tasks the worker runs at once
   * @param inFlight how many it runs now
   * @param running the ids of the tasks it runs now
   */
  public record Handler(String name, int concurrency, int inFlight, List<String> running) {
    static Handler of(WorkerHeartbeat.HandlerBeat h) {
      return new Handler(h.name(), h.concurrency(), h.inFlight(), h.running());
    }
  }
}
