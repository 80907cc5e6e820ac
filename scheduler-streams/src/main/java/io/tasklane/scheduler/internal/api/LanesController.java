package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.HandlerSetting;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import io.tasklane.scheduler.internal.ops.HandlerSettingsStore;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code GET /api/handlers/{name}/lanes[?limit=]}: a handler's lanes (docs/lanes.md) — how many are
 * active, blocked and how many tasks wait in them, and the {@code limit} (1 to 500, default 20)
 * that matter most: the blocked ones first (a DEAD task holds an ordered lane), then those with the
 * most tasks waiting, each with its holders and its first waiting task. This instance reads the
 * partitions it owns and asks every other ({@link FanOut}, {@code forwarded=true} answers the local
 * part); an instance that does not answer makes the answer {@code partial}. Runs on Micronaut's
 * blocking executor; reads only.
 */
@Controller("/api/handlers")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class LanesController {
  static final int DEFAULT_LIMIT = 20;
  static final int MAX_LIMIT = 500;

  private static final Comparator<LanesResponse.Lane> MOST_NEEDED =
      Comparator.comparing((LanesResponse.Lane l) -> !l.blocked())
          .thenComparing(Comparator.comparingInt(LanesResponse.Lane::waiting).reversed())
          .thenComparing(LanesResponse.Lane::key);

  private final FanOut fanOut;
  private final HandlerSettingsStore settings;

  LanesController(FanOut fanOut, HandlerSettingsStore settings) {
    this.fanOut = fanOut;
    this.settings = settings;
  }

  @Get(value = "/{name}/lanes", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> lanes(
      @PathVariable String name,
      @Nullable @QueryValue String limit,
      @Nullable @QueryValue Boolean forwarded) {
    if (!HandlerNames.isValid(name)) {
      return ApiErrors.json(400, "invalid-parameter", "name: not a valid handler name");
    }
    int n;
    try {
      n = limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit.trim());
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1 || n > MAX_LIMIT) {
      return ApiErrors.json(
          400,
          "invalid-parameter",
          "limit: '" + limit + "' must be an integer from 1 to " + MAX_LIMIT);
    }
    try {
      LanesResponse local = local(name, n);
      if (Boolean.TRUE.equals(forwarded)) {
        return json(local);
      }
      FanOut.Answers others =
          fanOut.others(
              fanOut.streams(),
              "/api/handlers/"
                  + URLEncoder.encode(name, StandardCharsets.UTF_8)
                  + "/lanes?limit="
                  + n
                  + "&forwarded=true",
              "handler lanes");
      List<LanesResponse> parts = new ArrayList<>();
      parts.add(local);
      for (String body : others.bodies()) {
        parts.add(WireCodec.treeToValue(WireCodec.readTree(body), LanesResponse.class));
      }
      HandlerSetting s = settings.effective(name);
      return json(merge(name, s, parts, n, others.missing()));
    } catch (FanOut.Unavailable e) {
      return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(e.answer.status()))
          .contentType(MediaType.APPLICATION_JSON_TYPE)
          .body(e.answer.json());
    }
  }

  private LanesResponse local(String handler, int limit) {
    long[] sums = new long[4];
    List<LanesResponse.Lane> rows = new ArrayList<>();
    for (int p : fanOut.localPartitions()) {
      TaskReads.of(store -> fanOut.store(store, p))
          .forEachLane(
              handler,
              r -> {
                sums[0]++;
                sums[1] += r.holders().isEmpty() ? 0 : 1;
                sums[2] += r.blocked() ? 1 : 0;
                sums[3] += r.waiting();
                rows.add(
                    new LanesResponse.Lane(
                        r.key(),
                        r.ordered() ? "ordered" : "keyed",
                        r.holders(),
                        r.waiting(),
                        r.head(),
                        r.blocked()));
              });
    }
    rows.sort(MOST_NEEDED);
    return new LanesResponse(
        handler,
        null,
        null,
        sums[0],
        sums[1],
        sums[2],
        sums[3],
        List.copyOf(rows.subList(0, Math.min(limit, rows.size()))),
        false,
        List.of());
  }

  static LanesResponse merge(
      String handler,
      HandlerSetting s,
      List<LanesResponse> parts,
      int limit,
      List<String> missing) {
    long lanes = 0;
    long active = 0;
    long blocked = 0;
    long waiting = 0;
    List<LanesResponse.Lane> rows = new ArrayList<>();
    for (LanesResponse p : parts) {
      lanes += p.lanes();
      active += p.active();
      blocked += p.blocked();
      waiting += p.waiting();
      rows.addAll(p.top());
    }
    rows.sort(MOST_NEEDED);
    return new LanesResponse(
        handler,
        s.maxPerKey(),
        s.onDead(),
        lanes,
        active,
        blocked,
        waiting,
        List.copyOf(rows.subList(0, Math.min(limit, rows.size()))),
        !missing.isEmpty(),
        missing);
  }

  private static HttpResponse<String> json(Object body) {
    return HttpResponse.<String>ok(WireCodec.encodeToString(body))
        .contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
