package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.SchedulerConfig;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One page request of {@code GET /api/tasks}: the {@link TaskFilter}, the sort, the page size, the
 * cursor to continue after and the listing's instant. Immutable; parsed by {@link #parse}.
 *
 * @param filter which tasks
 * @param sort by updatedAt (served in index order), createdAt or dueAt
 * @param asc ascending, else descending (the default)
 * @param limit the page size, 1 to {@link #MAX_LIMIT}
 * @param cursor the position to continue strictly after, or null for the first page
 * @param asOf the listing's instant: tasks created after it are left out
 * @param idsOnly rows from the index entries only (id, handler, state, routing key, times): what a
 *     bulk job enumerates; no record is read unless the filter needs it
 */
public record TaskQuery(
    TaskFilter filter,
    Sort sort,
    boolean asc,
    int limit,
    SearchPosition cursor,
    long asOf,
    boolean idsOnly) {

  static final int MAX_LIMIT = 500;
  static final int DEFAULT_LIMIT = 50;

  /** The sort orders, each with the letter its cursors carry. */
  enum Sort {
    UPDATED('u'),
    CREATED('c'),
    DUE('d');

    final char letter;

    Sort(char letter) {
      this.letter = letter;
    }

    long of(TaskRow r) {
      return switch (this) {
        case UPDATED -> r.updatedAt();
        case CREATED -> r.createdAt();
        case DUE -> r.dueAt();
      };
    }
  }

  private static final Set<String> OTHER_KEYS =
      Set.of("sort", "order", "limit", "cursor", "asOf", "fields", InterInstance.FORWARDED);

  /**
   * Parses the query parameters (each with every value it was given) of a caller with {@code role};
   * {@code now} is the listing's instant unless {@code asOf} is given.
   */
  public static TaskQuery parse(
      Map<String, List<String>> given, long now, Redactor redactor, SchedulerConfig.Role role) {
    Map<String, String> params = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : given.entrySet()) {
      String k = e.getKey();
      if (!OTHER_KEYS.contains(k) && !TaskFilter.KEYS.contains(k)) {
        throw new BadQueryException(
            k, "unknown parameter; the filters are " + String.join(", ", TaskFilter.KEYS));
      }
      if (OTHER_KEYS.contains(k) && e.getValue().size() > 1) {
        throw new BadQueryException(k, "given " + e.getValue().size() + " times; give it once");
      }
      if (!e.getValue().isEmpty()) {
        params.put(k, e.getValue().get(0));
      }
    }
    TaskFilter filter = TaskFilter.fromQuery(given, redactor, role);
    Sort sort = sort(params.get("sort"));
    String order = params.getOrDefault("order", "desc");
    if (!order.equals("asc") && !order.equals("desc")) {
      throw new BadQueryException("order", "must be asc or desc");
    }
    int limit = DEFAULT_LIMIT;
    if (params.get("limit") != null) {
      try {
        limit = Integer.parseInt(params.get("limit"));
      } catch (NumberFormatException e) {
        limit = -1;
      }
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new BadQueryException("limit", "must be 1 to " + MAX_LIMIT);
      }
    }
    String cursor = params.get("cursor");
    return new TaskQuery(
        filter,
        sort,
        order.equals("asc"),
        limit,
        cursor == null || cursor.isEmpty() ? null : SearchPosition.decode(cursor, sort),
        FilterValues.time(params, "asOf", now),
        "ids".equals(params.get("fields")));
  }

  private static Sort sort(String v) {
    if (v == null) {
      return Sort.UPDATED;
    }
    try {
      return Sort.valueOf(v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadQueryException("sort", "must be updated, created or due");
    }
  }

  /** The same query at {@code cursor} (null: the first page). */
  TaskQuery at(SearchPosition next) {
    return new TaskQuery(filter, sort, asc, limit, next, asOf, idsOnly);
  }

  /** This query as another instance receives it: pinned to {@link #asOf}, marked forwarded. */
  String forwardedQueryString() {
    Map<String, String> p = new LinkedHashMap<>(filter.raw()); // the payload value too: needed
    p.put("sort", sort.name().toLowerCase(Locale.ROOT));
    p.put("order", asc ? "asc" : "desc");
    p.put("limit", String.valueOf(limit));
    p.put("asOf", String.valueOf(asOf));
    if (cursor != null) {
      p.put("cursor", cursor.encode(sort));
    }
    if (idsOnly) {
      p.put("fields", "ids");
    }
    p.put(InterInstance.FORWARDED, "true");
    return p.entrySet().stream()
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }
}
