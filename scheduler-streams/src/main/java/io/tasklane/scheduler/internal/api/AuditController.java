package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.internal.ops.AuditEntry;
import io.tasklane.scheduler.internal.ops.AuditReader;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * {@code GET /api/audit?since=&limit=} (operator and admin, {@link ApiRoles}): the newest {@code
 * limit} records of {@code <ns>.audit} at or after {@code since}, newest first, read straight from
 * the topic ({@link AuditReader}), so every instance answers the same. At most {@link #READERS}
 * reads run at once; another one answers 429. Runs on Micronaut's blocking executor.
 */
@Controller("/api/audit")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class AuditController {
  static final int MAX_LIMIT = 500;
  static final int DEFAULT_LIMIT = 100;
  static final int READERS = 2;

  private final SchedulerConfig config;
  private final Topics topics;
  private final Semaphore readers = new Semaphore(READERS);

  AuditController(SchedulerConfig config, Topics topics) {
    this.config = config;
    this.topics = topics;
  }

  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> list(
      @Nullable @QueryValue String since, @Nullable @QueryValue String limit) {
    long from;
    int n;
    try {
      from = since == null ? 0 : Long.parseLong(since);
      n = limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit);
    } catch (NumberFormatException e) {
      return ApiErrors.badRequest(
          "since is epoch millis and limit an integer of 1 to " + MAX_LIMIT);
    }
    if (from < 0) {
      return ApiErrors.badRequest("since: " + from + " is below 0 (epoch millis)");
    }
    if (n < 1 || n > MAX_LIMIT) {
      return ApiErrors.badRequest("limit: " + n + " is outside 1 to " + MAX_LIMIT);
    }
    if (!readers.tryAcquire()) {
      return ApiErrors.json(
          429,
          "busy",
          READERS + " audit reads are running on this instance (the limit); retry in a moment");
    }
    List<AuditEntry> entries;
    try {
      entries = AuditReader.newest(config, topics, from, n);
    } catch (AuditReader.Unavailable e) {
      return ApiErrors.json(503, "unavailable", e.getMessage());
    } finally {
      readers.release();
    }
    AuditResponse body = AuditResponse.of(entries);
    return HttpResponse.ok(WireCodec.encodeToString(body))
        .contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
