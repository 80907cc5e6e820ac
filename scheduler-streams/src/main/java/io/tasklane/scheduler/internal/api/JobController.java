package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.tasklane.core.WireCodec;

/**
 * {@code GET /api/jobs/{job}} (viewer): a bulk job's progress ({@link BulkJob}), known to the
 * instance that runs it only (jobs live in its memory).
 */
@Controller("/api/jobs")
@Internal
public class JobController {
  private final BulkJobs jobs;

  JobController(BulkJobs jobs) {
    this.jobs = jobs;
  }

  @Get(value = "/{job}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(@PathVariable String job) {
    BulkJob j = jobs.get(job);
    StatusQuery.Answer a =
        j == null
            ? TaskSearch.error(
                404,
                "not-found",
                "no job "
                    + (job.length() > 40 ? job.substring(0, 40) + "…" : job)
                    + " on this instance (jobs live in the memory of the instance that started"
                    + " them, the newest "
                    + BulkJobs.KEPT
                    + ")")
            : new StatusQuery.Answer(200, WireCodec.encodeToString(j.json()));
    return SearchController.answer(a);
  }
}
