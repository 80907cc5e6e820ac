package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.TaskIds;
import io.tasklane.scheduler.SchedulerConfig.Role;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/tasks/counts} (viewer): tasks per handler and state over every instance ({@link
 * TaskSearch}); {@code POST /api/tasks/bulk/retry-dead|discard|cancel} ({@link BulkJobs}). The
 * search itself, {@code GET /api/tasks}, is {@link TaskController}'s route, which hands every
 * request but the keyed read to {@link TaskSearch#list}. Tokens and roles: {@link TokenFilter}.
 */
@Controller("/api/tasks")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class SearchController {
  private final TaskSearch search;
  private final BulkJobs jobs;
  private final LogQuery logs;
  private final Redactor redactor;

  SearchController(TaskSearch search, BulkJobs jobs, LogQuery logs, Redactor redactor) {
    this.redactor = redactor;
    this.search = search;
    this.jobs = jobs;
    this.logs = logs;
  }

  /** The handler log lines of task {@code id}, of {@code attempt} only when given (viewer). */
  @Get(value = "/{id}/logs", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> logs(
      @PathVariable String id,
      @Nullable @QueryValue Integer attempt,
      @Nullable @QueryValue Boolean forwarded,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    if (!TaskIds.isValid(id)) {
      return answer(
          TaskSearch.error(400, "bad-request", "id: not a task id, a canonical lower-case UUID"));
    }
    StatusQuery.Answer a = logs.find(id, attempt, Boolean.TRUE.equals(forwarded));
    // a viewer that sees no payloads sees no log text either (Redactor)
    return answer(
        a.status() == 200 ? new StatusQuery.Answer(200, redactor.apply(a.json(), role)) : a);
  }

  /**
   * Starts a bulk retry-dead over the tasks the body's {@code filter} matches at its {@code asOf}:
   * 202 {@code {"job":"<id>"}}; follow it with {@code GET /api/jobs/{job}} on this instance. Each
   * action has a literal route: {@code /bulk/{action}} would be as specific as {@code
   * /{id}/retry-dead} and lose to it.
   */
  @Post(value = "/bulk/retry-dead", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> bulkRetryDead(
      @Nullable @Body String body,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    return bulk("retry-dead", body, actor, role);
  }

  /** Starts a bulk discard, like {@link #bulkRetryDead}. */
  @Post(value = "/bulk/discard", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> bulkDiscard(
      @Nullable @Body String body,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    return bulk("discard", body, actor, role);
  }

  /** Starts a bulk cancel, like {@link #bulkRetryDead}. */
  @Post(value = "/bulk/cancel", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> bulkCancel(
      @Nullable @Body String body,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    return bulk("cancel", body, actor, role);
  }

  /**
   * Starts bulk job {@code action} for {@code role}: its filter is checked like a search's ({@link
   * TaskFilter#fromJson}), so a job's counts never tell which tasks hold a value the caller may not
   * see.
   */
  private HttpResponse<String> bulk(String action, String body, String actor, Role role) {
    return answer(jobs.start(action, body, actor, role));
  }

  @Get(value = "/counts", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> counts(
      @Nullable @QueryValue String handler, @Nullable @QueryValue Boolean forwarded) {
    return answer(
        search.countsAnswer(handler, Boolean.TRUE.equals(forwarded), System.currentTimeMillis()));
  }

  /** The request's query parameters, each with every value it was given. */
  static Map<String, List<String>> params(HttpRequest<?> request) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : request.getParameters().asMap().entrySet()) {
      out.put(e.getKey(), List.copyOf(e.getValue()));
    }
    return out;
  }

  static HttpResponse<String> answer(StatusQuery.Answer a) {
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.json());
  }
}
