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
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.ops.Alerts;
import io.tasklane.scheduler.internal.ops.RelayWatch;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /api/relay} (viewer): the relay as the schedulers see it — the last new task any
 * instance admitted and the admission lag (outbox insert → admitted by the scheduler) of the tasks
 * admitted in the last 30 to 60 seconds ({@link RelayWatch}), fanned out over the instances. {@code
 * status} is {@code flowing} when a task was admitted in the last {@link #IDLE_AFTER_MS}, {@code
 * idle} when none was since (no new tasks, or the relay is stopped: the scheduler cannot tell
 * which), {@code unknown} when none was since the instances started ({@link RelayResponse}). Runs
 * on Micronaut's blocking executor.
 */
@Controller("/api/relay")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class RelayController {
  static final long IDLE_AFTER_MS = 60_000;

  /**
   * A forwarded read's answer: this instance's figures, the lags encoded ({@link
   * RelayWatch.Figures#encodedLags}), so the asking instance merges histograms.
   */
  record Encoded(long lastAdmittedAt, long lastLagMs, long sinceMs, String lags) {
    static Encoded of(RelayWatch.Figures f) {
      return new Encoded(f.lastAdmittedAt(), f.lastLagMs(), f.sinceMs(), f.encodedLags());
    }

    RelayWatch.Figures figures() {
      return new RelayWatch.Figures(
          lastAdmittedAt, lastLagMs, sinceMs, RelayWatch.Figures.decodeLags(lags));
    }
  }

  private final Alerts alerts;
  private final StreamsAccess local;
  private final FanOut fanOut;
  private final Clock clock;

  RelayController(Alerts alerts, StreamsAccess local, FanOut fanOut, Optional<Clock> clock) {
    this.alerts = alerts;
    this.local = local;
    this.fanOut = fanOut;
    this.clock = clock.orElse(Clock.systemUTC());
  }

  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> relay(@Nullable @QueryValue Boolean forwarded) {
    RelayWatch.Figures mine = alerts.relay().figures();
    if (Boolean.TRUE.equals(forwarded)) {
      return ok(Encoded.of(mine));
    }
    RelayWatch.Figures all = mine;
    List<String> missing = List.of();
    var streams = local.streams();
    if (streams != null && streams.state().isRunningOrRebalancing()) {
      FanOut.Answers others = fanOut.others(streams, "/api/relay?forwarded=true", "relay figures");
      missing = others.missing();
      for (String body : others.bodies()) {
        all = all.add(WireCodec.treeToValue(WireCodec.readTree(body), Encoded.class).figures());
      }
    }
    return ok(RelayResponse.of(all, missing, clock.millis()));
  }

  private static HttpResponse<String> ok(Object body) {
    return HttpResponse.ok(WireCodec.encodeToString(body))
        .contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
