package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.RateLimitSetting;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.SchedulerException;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.RateLimitStore;
import io.tasklane.scheduler.internal.ops.RecordSender;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code /api/limits} and {@code /api/handlers/{name}/rate}: rate limits (docs/rate-limits.md)
 * read, set and removed at run time. A change is written to the compacted {@code <ns>.rate-limits}
 * keyed by the limit ({@link RateLimitStore}), audit-logged, and obeyed by the limit's owner from
 * its next slot on, on every instance; removing a limit set here puts the configured one back. Runs
 * on Micronaut's blocking executor.
 */
@Controller("/api")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class RateLimitController {
  private static final String HANDLER = ControlCommand.RateAsk.HANDLER_LIMIT;

  private final RateLimitStore limits;
  private final RecordSender sender;
  private final Topics topics;
  private final AuditLog audit;
  private final Clock clock;

  RateLimitController(
      RateLimitStore limits,
      RecordSender sender,
      Topics topics,
      AuditLog audit,
      Optional<Clock> clock) {
    this.limits = limits;
    this.sender = sender;
    this.topics = topics;
    this.audit = audit;
    this.clock = clock.orElse(Clock.systemUTC());
  }

  @Get(value = "/limits", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> list() {
    List<RateLimitsResponse.Limit> out =
        limits.all().values().stream().map(RateLimitsResponse.Limit::of).toList();
    return json(new RateLimitsResponse(out));
  }

  @Get(value = "/limits/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(@PathVariable String name) {
    HttpResponse<String> bad = checkName(name);
    if (bad != null) {
      return bad;
    }
    RateLimitStore.View v = limits.view(name);
    if (v.current() == null && v.configured() == null) {
      return ApiErrors.json(404, "not-found", "no rate limit " + name);
    }
    return json(RateLimitsResponse.Limit.of(v));
  }

  /** {@code POST /api/limits/{name}?rate=50/s&burst=10}: sets a named limit. */
  @Post(value = "/limits/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> set(
      @PathVariable String name,
      @Nullable @QueryValue String rate,
      @Nullable @QueryValue String burst,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    HttpResponse<String> bad = checkName(name);
    return bad != null ? bad : write(name, rate, burst, actor);
  }

  /** {@code DELETE /api/limits/{name}}: removes the limit set at run time. */
  @Delete(value = "/limits/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> remove(
      @PathVariable String name, @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    HttpResponse<String> bad = checkName(name);
    return bad != null ? bad : write(name, null, null, actor);
  }

  /** {@code POST /api/handlers/{name}/rate?rate=5/s&burst=1}: sets a handler's own rate. */
  @Post(value = "/handlers/{name}/rate", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> setHandler(
      @PathVariable String name,
      @Nullable @QueryValue String rate,
      @Nullable @QueryValue String burst,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    HttpResponse<String> bad = checkName(name);
    return bad != null ? bad : write(HANDLER + name, rate, burst, actor);
  }

  /** {@code DELETE /api/handlers/{name}/rate}: removes the handler's rate set at run time. */
  @Delete(value = "/handlers/{name}/rate", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> removeHandler(
      @PathVariable String name, @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    HttpResponse<String> bad = checkName(name);
    return bad != null ? bad : write(HANDLER + name, null, null, actor);
  }

  /**
   * Writes the setting of {@code key} ({@code rate} null: a tombstone), waits (up to 5 s) until
   * this instance reads it back, and answers the limit's view.
   */
  private HttpResponse<String> write(String key, String rate, String burst, String actor) {
    RateLimitSetting next = null;
    if (rate != null || burst != null) {
      RateLimit parsed;
      try {
        parsed = RateLimit.parse(rate, burst(burst));
      } catch (SchedulerException e) {
        return ApiErrors.json(400, "invalid-parameter", e.getMessage());
      }
      next = RateLimitSetting.of(key, parsed.rate(), parsed.burst(), clock.millis(), actor);
    } else if (limits.setting(key) == null) {
      return ApiErrors.json(404, "not-found", "no rate limit " + key + " set through the API");
    }
    String what = next == null ? "removed" : "rate=" + next.rate() + ",burst=" + next.burst();
    RateLimitSetting written = next;
    HttpResponse<String> failed =
        SettingWrite.write(
            sender,
            audit,
            clock,
            topics.rateLimits(),
            key,
            written == null ? null : WireCodec.encode(written),
            actor,
            "limit." + what,
            "limit/" + key,
            () -> Objects.equals(limits.setting(key), written));
    if (failed != null) {
      return failed;
    }
    return json(RateLimitsResponse.Limit.of(limits.view(key)));
  }

  /** {@code burst} as an integer, null when left out. */
  private static Integer burst(String burst) {
    if (burst == null) {
      return null;
    }
    try {
      return Integer.valueOf(burst.trim());
    } catch (NumberFormatException e) {
      throw new SchedulerException(
          "burst: '" + burst + "' must be an integer from 1 to " + RateLimit.MAX_BURST);
    }
  }

  private static HttpResponse<String> checkName(String name) {
    String problem = TaskOptions.limitNameProblem(name);
    return problem == null ? null : ApiErrors.json(400, "invalid-parameter", "name: " + problem);
  }

  private static HttpResponse<String> json(Object body) {
    return HttpResponse.<String>ok(WireCodec.encodeToString(body))
        .contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
