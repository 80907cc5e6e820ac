package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What a worker process says about itself every {@code heartbeat-interval} on the compacted {@code
 * <ns>.workers}, keyed by its {@code id}; a tombstone (null value) when it stops cleanly. The
 * scheduler keeps the latest per worker ({@code GET /api/workers}).
 *
 * @param v wire version
 * @param id this worker process: its {@code name} and a random suffix per start
 * @param name the worker's configured {@code name} (results and logs show it)
 * @param host the host name
 * @param pid the process id
 * @param version the worker runtime's version ({@code unknown} when not packaged)
 * @param startedAt epoch millis the worker started
 * @param at epoch millis of this heartbeat (worker clock)
 * @param intervalMs the worker's heartbeat interval
 * @param handlers what each of its handlers does now
 * @param holdsDispatches true when the worker holds a {@link Dispatch} until its {@code notBefore}
 *     (false in the heartbeats of workers that predate it: the scheduler then dispatches every
 *     attempt at its due time)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkerHeartbeat(
    @JsonProperty(required = true) int v,
    String id,
    String name,
    String host,
    long pid,
    String version,
    long startedAt,
    long at,
    long intervalMs,
    List<HandlerBeat> handlers,
    boolean holdsDispatches)
    implements Versioned {

  public WorkerHeartbeat {
    handlers = handlers == null ? List.of() : List.copyOf(handlers);
  }

  /**
   * One handler of the worker.
   *
   * @param name handler name
   * @param concurrency threads of its pool now
   * @param inFlight dispatches handed to its pool and not finished (running or waiting for a
   *     thread)
   * @param running ids of the tasks whose handler runs now
   */
  public record HandlerBeat(String name, int concurrency, int inFlight, List<String> running) {
    public HandlerBeat {
      running = running == null ? List.of() : List.copyOf(running);
    }
  }
}
