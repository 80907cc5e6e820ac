package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.ReportGrain;
import io.tasklane.scheduler.internal.ops.Alerts;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@code GET /api/reports} (time-bucketed figures of one handler, {@link ReportQuery}) and {@code
 * GET /api/alerts} (recent alert groups of every instance, newest first), both viewer reads fanned
 * out over the instances ({@link FanOut}). A bad parameter answers 400 {@code {"error":
 * "invalid-parameter", "message": ...}} naming it and its limit. Tokens and roles: {@link
 * TokenFilter}.
 */
@Controller("/api")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class ReportController {
  static final int MAX_ALERTS = Alerts.RECENT;

  /** A parameter the caller got wrong. */
  static final class BadParameter extends RuntimeException {
    BadParameter(String message) {
      super(message);
    }
  }

  private final ReportQuery reports;
  private final Alerts alerts;
  private final StreamsAccess local;
  private final FanOut fanOut;

  ReportController(ReportQuery reports, Alerts alerts, StreamsAccess local, FanOut fanOut) {
    this.reports = reports;
    this.alerts = alerts;
    this.local = local;
    this.fanOut = fanOut;
  }

  @Get(value = "/reports", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> report(
      @Nullable @QueryValue String handler,
      @Nullable @QueryValue String bucket,
      @Nullable @QueryValue String since,
      @Nullable @QueryValue String until,
      @Nullable @QueryValue Boolean forwarded) {
    try {
      if (!HandlerNames.isValid(handler)) {
        throw new BadParameter(
            "handler: "
                + (handler == null ? "is required" : "'" + abbreviate(handler) + "' is invalid")
                + "; it must match "
                + HandlerNames.PATTERN.pattern());
      }
      ReportGrain grain = grain(bucket);
      long to = until == null ? System.currentTimeMillis() : time("until", until);
      long from = since == null ? to - defaultSpan(grain).toMillis() : time("since", since);
      if (from >= to) {
        throw new BadParameter("since: " + from + " must be before until " + to);
      }
      if (to - from > grain.maxSpan.toMillis()) {
        throw new BadParameter(
            "since: until - since may be at most "
                + grain.maxSpan
                + " with bucket="
                + grain.label()
                + " (got "
                + Duration.ofMillis(to - from)
                + ")");
      }
      StatusQuery.Answer a =
          reports.report(handler, grain, from, to, Boolean.TRUE.equals(forwarded));
      return answer(a.status(), a.json());
    } catch (BadParameter e) {
      return invalid(e.getMessage());
    }
  }

  @Get(value = "/alerts", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> alerts(
      @Nullable @QueryValue String limit, @Nullable @QueryValue Boolean forwarded) {
    int n;
    try {
      n = limit == null ? 50 : Integer.parseInt(limit);
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > MAX_ALERTS) {
      return invalid("limit: '" + limit + "' must be a number from 1 to " + MAX_ALERTS);
    }
    HostInfo me = local.self();
    String self = me == null ? "" : me.host() + ":" + me.port();
    List<AlertsResponse.Alert> alerts = new ArrayList<>();
    this.alerts.recent().forEach(g -> alerts.add(AlertsResponse.Alert.of(g, self)));
    if (Boolean.TRUE.equals(forwarded)) {
      return answer(200, WireCodec.encodeToString(new AlertsResponse(alerts, false, List.of())));
    }
    List<String> missing = List.of();
    var streams = local.streams();
    if (streams != null && streams.state().isRunningOrRebalancing()) {
      FanOut.Answers others = fanOut.others(streams, "/api/alerts?forwarded=true", "alerts");
      missing = others.missing();
      for (String body : others.bodies()) {
        alerts.addAll(
            WireCodec.treeToValue(WireCodec.readTree(body), AlertsResponse.class).alerts());
      }
    }
    alerts.sort(Comparator.comparingLong(AlertsResponse.Alert::lastAt).reversed());
    AlertsResponse r =
        new AlertsResponse(
            alerts.subList(0, Math.min(n, alerts.size())), !missing.isEmpty(), missing);
    return answer(200, WireCodec.encodeToString(r));
  }

  private static ReportGrain grain(String bucket) {
    if (bucket == null) {
      return ReportGrain.HOUR;
    }
    try {
      return ReportGrain.valueOf(bucket.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadParameter(
          "bucket: '" + abbreviate(bucket) + "' must be minute, hour or day (default hour)");
    }
  }

  private static Duration defaultSpan(ReportGrain grain) {
    return switch (grain) {
      case MINUTE -> Duration.ofHours(1);
      case HOUR -> Duration.ofDays(1);
      case DAY -> Duration.ofDays(30);
    };
  }

  /** Epoch millis or an ISO-8601 instant. */
  private static long time(String name, String value) {
    try {
      long ms =
          value.matches("-?[0-9]{1,15}")
              ? Long.parseLong(value)
              : Instant.parse(value).toEpochMilli();
      if (ms < 0) {
        throw new BadParameter(name + ": " + ms + " must not be negative");
      }
      return ms;
    } catch (DateTimeParseException e) {
      throw new BadParameter(
          name
              + ": '"
              + abbreviate(value)
              + "' is neither epoch milliseconds nor an ISO-8601 instant (2026-01-31T12:00:00Z)");
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  private static HttpResponse<String> invalid(String message) {
    return ApiErrors.json(400, "invalid-parameter", message);
  }

  private static HttpResponse<String> answer(int status, String json) {
    return HttpResponse.<String>status(HttpStatus.valueOf(status))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(json);
  }
}
