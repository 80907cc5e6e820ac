package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.HandlerSetting;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WorkerHeartbeat;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.HandlerLag;
import io.tasklane.scheduler.internal.ops.HandlerSettingsStore;
import io.tasklane.scheduler.internal.ops.RecordSender;
import io.tasklane.scheduler.internal.ops.TopicWatcher;
import io.tasklane.scheduler.internal.ops.WorkerRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.function.UnaryOperator;

/**
 * {@code /api/handlers}: every handler (a dispatch topic, a setting or a worker names it) with its
 * operator settings, its live workers ({@link WorkerRegistry}), their in-flight work and the
 * topic's lag ({@link HandlerLag}); pause, resume and live concurrency, written to the compacted
 * {@code <ns>.handler-settings} ({@link HandlerSettingsStore}) and audit-logged. Each view also
 * carries the handler's counts by state, backlog and recent figures of every instance ({@link
 * HandlerStats}); {@code ?forwarded=true} answers this instance's raw figures. Runs on Micronaut's
 * blocking executor.
 */
@Controller("/api/handlers")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class HandlerController {

  private final HandlerSettingsStore settings;
  private final TopicWatcher handlerTopics;
  private final WorkerRegistry registry;
  private final HandlerLag lag;
  private final RecordSender sender;
  private final Topics topics;
  private final AuditLog audit;
  private final Clock clock;
  private final HandlerStats stats;

  HandlerController(
      HandlerSettingsStore settings,
      TopicWatcher handlerTopics,
      WorkerRegistry registry,
      HandlerLag lag,
      RecordSender sender,
      Topics topics,
      FanOut fanOut,
      AuditLog audit,
      Optional<Clock> clock) {
    this.settings = settings;
    this.handlerTopics = handlerTopics;
    this.registry = registry;
    this.lag = lag;
    this.sender = sender;
    this.topics = topics;
    this.stats = new HandlerStats(fanOut);
    this.audit = audit;
    this.clock = clock.orElse(Clock.systemUTC());
  }

  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> list(
      @Nullable @QueryValue Boolean forwarded, @Nullable @QueryValue Long at) {
    if (Boolean.TRUE.equals(forwarded)) {
      try {
        String body = stats.forwarded(at == null ? clock.millis() : at);
        return HttpResponse.ok(body).contentType(MediaType.APPLICATION_JSON_TYPE);
      } catch (FanOut.Unavailable e) {
        return json(e.answer.status(), WireCodec.readTree(e.answer.json()));
      }
    }
    HandlerStats.All all = allOrNull();
    List<HandlerResponse> out = new ArrayList<>();
    for (String h : names()) {
      out.add(view(h, all));
    }
    return json(
        200,
        new HandlersResponse(
            out, all == null || !all.missing().isEmpty(), all == null ? List.of() : all.missing()));
  }

  @Get(value = "/{name}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(@PathVariable String name) {
    HttpResponse<String> bad = checkName(name);
    if (bad != null) {
      return bad;
    }
    if (!names().contains(name)) {
      return ApiErrors.json(
          404, "not-found", "no handler " + name + ": no topic, worker or setting");
    }
    return json(200, view(name));
  }

  @Post(value = "/{name}/pause", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> pause(
      @PathVariable String name, @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return change(name, actor, "pause", s -> s.withPaused(true, clock.millis(), actor));
  }

  @Post(value = "/{name}/resume", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> resume(
      @PathVariable String name, @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    return change(name, actor, "resume", s -> s.withPaused(false, clock.millis(), actor));
  }

  @Post(value = "/{name}/concurrency", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> concurrency(
      @PathVariable String name,
      @Nullable @QueryValue String value,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    int n;
    try {
      n = Integer.parseInt(value == null ? "" : value.trim());
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1 || n > HandlerSetting.MAX_CONCURRENCY) {
      return ApiErrors.json(
          400,
          "invalid-parameter",
          "value: '"
              + value
              + "' must be an integer from 1 to "
              + HandlerSetting.MAX_CONCURRENCY
              + " (threads of each worker's pool for the handler)");
    }
    int threads = n;
    return change(
        name, actor, "concurrency=" + n, s -> s.withConcurrency(threads, clock.millis(), actor));
  }

  /**
   * {@code POST /api/handlers/{name}/lanes?maxPerKey=N|none&onDead=BLOCK|SKIP}: the limit per
   * concurrency key ({@code none}: unlimited) and the ordered lanes' DEAD policy; a parameter left
   * out keeps its value. Dispatch obeys a new limit from the next task that asks for its lane.
   */
  @Post(value = "/{name}/lanes", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> lanes(
      @PathVariable String name,
      @Nullable @QueryValue String maxPerKey,
      @Nullable @QueryValue String onDead,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    String problem = LaneSettings.problem(maxPerKey, onDead);
    if (problem != null) {
      return ApiErrors.json(400, "invalid-parameter", problem);
    }
    return change(
        name,
        actor,
        LaneSettings.action(maxPerKey, onDead),
        s -> LaneSettings.apply(s, maxPerKey, onDead, clock.millis(), actor));
  }

  /**
   * Writes the handler's changed setting keyed by its name, waits (up to 5 s) until this instance
   * reads it back, and answers the handler's view.
   */
  private HttpResponse<String> change(
      String name, String actor, String what, UnaryOperator<HandlerSetting> edit) {
    HttpResponse<String> bad = checkName(name);
    if (bad != null) {
      return bad;
    }
    HandlerSetting next = edit.apply(settings.get(name));
    HttpResponse<String> failed =
        SettingWrite.write(
            sender,
            audit,
            clock,
            topics.handlerSettings(),
            name,
            WireCodec.encode(next),
            actor,
            "handler." + what,
            "handler/" + name,
            () -> settings.get(name).equals(next));
    if (failed != null) {
      return failed;
    }
    return json(200, view(name));
  }

  private SortedSet<String> names() {
    SortedSet<String> names = handlerTopics.handlers();
    names.addAll(settings.all().keySet());
    for (WorkerRegistry.Seen s : registry.all()) {
      s.beat().handlers().forEach(h -> names.add(h.name()));
    }
    return names;
  }

  /** One handler's view with every instance's figures, or without them while unavailable. */
  private HandlerResponse view(String name) {
    return view(name, allOrNull());
  }

  /** Every instance's figures, or null while this instance's Streams is not running. */
  private HandlerStats.All allOrNull() {
    try {
      return stats.all(clock.millis());
    } catch (FanOut.Unavailable e) {
      return null;
    }
  }

  /** One handler's view: settings, workers, lag, and the figures of {@code all} (null: none). */
  private HandlerResponse view(String name, HandlerStats.All all) {
    HandlerSetting setting = settings.effective(name);
    long now = registry.now();
    List<String> workers = new ArrayList<>();
    int inFlight = 0;
    Integer reported = null;
    for (WorkerRegistry.Seen s : registry.all()) {
      if (!registry.live(s, now)) {
        continue;
      }
      for (WorkerHeartbeat.HandlerBeat h : s.beat().handlers()) {
        if (h.name().equals(name)) {
          workers.add(s.beat().id());
          inFlight += h.inFlight();
          reported = reported == null ? h.concurrency() : Math.max(reported, h.concurrency());
        }
      }
    }
    HandlerStats.Figures f = all == null ? null : all.of(name);
    return new HandlerResponse(
        name,
        setting.paused(),
        setting.concurrency() != null ? setting.concurrency() : reported,
        setting.concurrency(),
        setting.maxPerKey(),
        setting.onDead(),
        workers,
        inFlight,
        lag.lag(name, topics.handler(name)),
        HandlerResponse.time(setting.updatedAt()),
        HandlerResponse.iso(setting.updatedAt()),
        setting.actor(),
        f == null ? null : HandlerResponse.counts(f),
        f == null ? null : f.backlog,
        f == null ? null : HandlerResponse.Recent.of(f, all.since(), clock.millis()),
        all == null || !all.missing().isEmpty());
  }

  private static HttpResponse<String> checkName(String name) {
    return HandlerNames.isValid(name)
        ? null
        : ApiErrors.json(400, "invalid-parameter", "name: not a valid handler name");
  }

  private static HttpResponse<String> json(int status, Object body) {
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(status))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(WireCodec.encodeToString(body));
  }
}
