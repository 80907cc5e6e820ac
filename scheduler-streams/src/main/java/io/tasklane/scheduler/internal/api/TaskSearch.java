package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@code GET /api/tasks} searches and {@code GET /api/tasks/counts}: each instance answers for the
 * partitions it owns ({@link LocalTaskSearch}, the state-count stores); the instance the caller
 * asked also asks every other one ({@link FanOut}) and merges the pages in sort order, cut at the
 * earliest place an instance stopped, so the next page neither repeats nor skips a task. The
 * answers: {@link TaskListingResponse}, {@link TaskCountsResponse}. Called on Micronaut's blocking
 * executor; thread-safe.
 */
@Singleton
@Internal
public final class TaskSearch {
  /**
   * A merged page.
   *
   * @param next the position to continue after, null when the listing is complete
   */
  record Result(
      long asOf, List<TaskRow> rows, boolean partial, long scanned, SearchPosition next) {}

  private final FanOut fanOut;
  private final LocalTaskSearch local;
  private final Redactor redactor;

  TaskSearch(SchedulerConfig config, FanOut fanOut, Redactor redactor) {
    this.redactor = redactor;
    this.fanOut = fanOut;
    this.local = new LocalTaskSearch(config.searchScanBound());
  }

  /**
   * {@code GET /api/tasks} with query parameters {@code params} (every value of each) from a caller
   * with {@code role}: 200 with a page, 400 naming a bad parameter, 403 for a payload field the
   * role may not search, or the 502/503 of an instance that could not answer.
   */
  StatusQuery.Answer list(Map<String, List<String>> params, long now, Role role) {
    try {
      TaskQuery q = TaskQuery.parse(params, now, redactor, role);
      boolean forwarded = params.getOrDefault(InterInstance.FORWARDED, List.of()).contains("true");
      return new StatusQuery.Answer(
          200, WireCodec.encodeToString(TaskListingResponse.of(search(q, forwarded), q.sort())));
    } catch (BadQueryException e) {
      return badRequest(e);
    } catch (FanOut.Unavailable e) {
      return e.answer;
    }
  }

  /** {@code GET /api/tasks/counts}, answered like {@link #list}. */
  StatusQuery.Answer countsAnswer(String handler, boolean forwarded, long now) {
    try {
      return new StatusQuery.Answer(200, WireCodec.encodeToString(counts(handler, forwarded, now)));
    } catch (BadQueryException e) {
      return badRequest(e);
    } catch (FanOut.Unavailable e) {
      return e.answer;
    }
  }

  static StatusQuery.Answer badRequest(BadQueryException e) {
    return error(e.status, e.code, e.getMessage());
  }

  /** {@code {"error":"<code>","message":"<what>"}} ({@link ErrorResponse}). */
  static StatusQuery.Answer error(int status, String code, String message) {
    return ApiErrors.answer(status, code, message);
  }

  /** One page of {@code q}: this instance's only when {@code forwarded}, else every instance's. */
  Result search(TaskQuery q, boolean forwarded) {
    List<LocalTaskSearch.Page> pages = new ArrayList<>();
    pages.add(local.search(partitions(q.filter()), q));
    if (!forwarded) {
      for (HostInfo h : fanOut.others()) {
        pages.add(page(fanOut.get(h, "/api/tasks?" + q.forwardedQueryString()), q.sort()));
      }
    }
    return merge(q, pages);
  }

  static Result merge(TaskQuery q, List<LocalTaskSearch.Page> pages) {
    Comparator<SearchPosition> order = SearchPosition.order(q.asc());
    SearchPosition frontier = null;
    boolean partial = false;
    long scanned = 0;
    List<TaskRow> all = new ArrayList<>();
    for (LocalTaskSearch.Page p : pages) {
      partial |= p.partial();
      scanned += p.scanned();
      all.addAll(p.rows());
      if (p.frontier() != null && (frontier == null || order.compare(p.frontier(), frontier) < 0)) {
        frontier = p.frontier();
      }
    }
    all.sort((a, b) -> order.compare(a.position(q.sort()), b.position(q.sort())));
    SearchPosition cut = frontier;
    List<TaskRow> upToCut =
        all.stream()
            .filter(r -> cut == null || order.compare(r.position(q.sort()), cut) <= 0)
            .toList();
    List<TaskRow> rows = upToCut.subList(0, Math.min(q.limit(), upToCut.size()));
    SearchPosition next;
    if (rows.size() == q.limit() && (upToCut.size() > q.limit() || frontier != null)) {
      next = rows.get(rows.size() - 1).position(q.sort());
    } else {
      next = rows.size() < q.limit() ? frontier : null;
    }
    return new Result(q.asOf(), List.copyOf(rows), partial, scanned, next);
  }

  private static LocalTaskSearch.Page page(String json, TaskQuery.Sort sort) {
    TaskListingResponse n =
        WireCodec.treeToValue(WireCodec.readTree(json), TaskListingResponse.class);
    return new LocalTaskSearch.Page(
        n.tasks() == null
            ? List.of()
            : n.tasks().stream().map(TaskListingResponse.Row::row).toList(),
        n.partial(),
        n.scanned(),
        n.nextCursor() == null ? null : SearchPosition.decode(n.nextCursor(), sort));
  }

  /** The local partitions with their stores and the index groups {@code filter} selects. */
  private List<LocalTaskSearch.Partition> partitions(TaskFilter filter) {
    List<LocalTaskSearch.Partition> out = new ArrayList<>();
    for (int p : fanOut.localPartitions()) {
      TaskReads reads = TaskReads.of(name -> fanOut.store(name, p));
      List<LocalTaskSearch.Group> groups = new ArrayList<>();
      if (filter.states() != null && filter.handlers() != null) {
        filter.states().forEach(s -> filter.handlers().forEach(h -> groups.add(group(s, h))));
      } else {
        for (TaskReads.Group g : reads.groups()) {
          if ((filter.states() == null || filter.states().contains(g.state()))
              && (filter.handlers() == null || filter.handlers().contains(g.handler()))) {
            groups.add(group(g.state(), g.handler()));
          }
        }
      }
      List<LocalTaskSearch.Group> queued = new ArrayList<>();
      for (LocalTaskSearch.Group g : groups) {
        if (TaskReads.QUEUEABLE.contains(g.state())) {
          queued.add(new LocalTaskSearch.Group(g.state(), g.handler(), true));
        }
      }
      groups.addAll(
          queued); // a PENDING or RETRYING task queued for a slot is in a group of its own
      out.add(new LocalTaskSearch.Partition(reads, groups));
    }
    return out;
  }

  private static LocalTaskSearch.Group group(TaskState s, String h) {
    return new LocalTaskSearch.Group(s, h);
  }

  /** The non-zero per-(state, handler) counts of one partition. */
  private static Map<LocalTaskSearch.Group, Long> counts(TaskReads reads) {
    Map<LocalTaskSearch.Group, Long> out = new LinkedHashMap<>();
    for (TaskReads.GroupCount c : reads.counts()) {
      out.merge(group(c.state(), c.handler()), c.count(), Long::sum);
    }
    return out;
  }

  /**
   * {@code GET /api/tasks/counts}: tasks per handler and state (of {@code handler} only, when
   * given), summed over this instance's partitions and, unless {@code forwarded}, every other
   * instance's.
   */
  TaskCountsResponse counts(String handler, boolean forwarded, long now) {
    if (handler != null && !HandlerNames.PATTERN.matcher(handler).matches()) {
      throw new BadQueryException("handler", "not a handler name " + HandlerNames.PATTERN);
    }
    Map<String, Map<TaskState, Long>> sum = new TreeMap<>();
    for (int p : fanOut.localPartitions()) {
      counts(TaskReads.of(name -> fanOut.store(name, p)))
          .forEach((g, n) -> add(sum, g.handler(), g.state(), n));
    }
    if (!forwarded) {
      String q =
          "/api/tasks/counts?"
              + (handler == null
                  ? ""
                  : "handler=" + URLEncoder.encode(handler, StandardCharsets.UTF_8) + "&")
              + InterInstance.FORWARDED
              + "=true";
      for (HostInfo h : fanOut.others()) {
        WireCodec.readTree(fanOut.get(h, q))
            .path("counts")
            .forEach(
                c ->
                    add(
                        sum,
                        c.path("handler").asText(),
                        TaskState.valueOf(c.path("state").asText()),
                        c.path("count").asLong()));
      }
    }
    return TaskCountsResponse.of(now, sum, handler);
  }

  private static void add(Map<String, Map<TaskState, Long>> sum, String h, TaskState s, long n) {
    sum.computeIfAbsent(h, k -> new TreeMap<>()).merge(s, n, Long::sum);
  }
}
