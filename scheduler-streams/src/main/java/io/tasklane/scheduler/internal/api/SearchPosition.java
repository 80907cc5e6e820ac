package io.tasklane.scheduler.internal.api;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;

/**
 * A place in a listing's sort order: the sort value (epoch millis of updatedAt, createdAt or dueAt)
 * and the task id, which breaks ties. A cursor is this position, opaque to clients (base64url of
 * {@code <sort letter>:<value>:<id>}); a listing continues strictly after it. Immutable.
 */
record SearchPosition(long value, String id) {
  /** Ascending order: by value, then by id. */
  static final Comparator<SearchPosition> ASC =
      Comparator.comparingLong(SearchPosition::value).thenComparing(SearchPosition::id);

  static Comparator<SearchPosition> order(boolean asc) {
    return asc ? ASC : ASC.reversed();
  }

  String encode(TaskQuery.Sort sort) {
    String s = sort.letter + ":" + value + ":" + id;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  /** Decodes a cursor made for {@code sort}; throws {@link BadQueryException} naming it. */
  static SearchPosition decode(String cursor, TaskQuery.Sort sort) {
    String s;
    try {
      s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadQueryException(
          "cursor", "not a cursor of this API (send nextCursor as it came)");
    }
    String[] parts = s.split(":", 3);
    if (parts.length != 3 || parts[0].length() != 1) {
      throw new BadQueryException(
          "cursor", "not a cursor of this API (send nextCursor as it came)");
    }
    if (parts[0].charAt(0) != sort.letter) {
      throw new BadQueryException(
          "cursor", "was made for another sort; send the sort of the listing it came from");
    }
    try {
      return new SearchPosition(Long.parseLong(parts[1]), parts[2]);
    } catch (NumberFormatException e) {
      throw new BadQueryException(
          "cursor", "not a cursor of this API (send nextCursor as it came)");
    }
  }
}
