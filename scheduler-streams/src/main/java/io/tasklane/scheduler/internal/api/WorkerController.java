package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.ops.WorkerRegistry;

/**
 * {@code GET /api/workers} (viewer): every worker process of the namespace as its heartbeats on
 * {@code <ns>.workers} show it ({@link WorkerRegistry}), live or lost, with what each handler runs.
 * Answered from this instance's registry, which holds every worker: no fan-out.
 */
@Controller("/api/workers")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class WorkerController {
  private final WorkerRegistry registry;

  WorkerController(WorkerRegistry registry) {
    this.registry = registry;
  }

  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> list() {
    return HttpResponse.ok(WireCodec.encodeToString(WorkersResponse.of(registry)))
        .contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
