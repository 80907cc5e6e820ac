package io.tasklane.scheduler.internal.api;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code GET /api/batches}: a page of the batches in id order, from every instance, each as {@code
 * GET /api/batches/{id}} answers it. Immutable.
 *
 * @param batches the page's batches
 * @param nextCursor the id to continue after, null on the last page
 * @param partial whether an instance did not answer (its batches are missing)
 * @param unreachable the instances that did not answer, {@code host:port}
 */
public record BatchListResponse(
    List<BatchResponse> batches, String nextCursor, boolean partial, List<String> unreachable) {

  /**
   * The page of at most {@code limit} of {@code merged} (by id; each instance gave at most {@code
   * limit + 1}, so more ids than {@code limit} means more pages). A {@code forwarded} page carries
   * its next batch too: the asking instance pages over the merge.
   */
  static BatchListResponse page(
      TreeMap<String, BatchResponse> merged,
      int limit,
      List<String> unreachable,
      boolean forwarded) {
    List<BatchResponse> lines = new ArrayList<>();
    String last = null;
    for (BatchResponse b : merged.values()) {
      if (lines.size() == limit) {
        break;
      }
      lines.add(b);
      last = b.id();
    }
    String next = merged.size() > limit ? last : null;
    if (forwarded) {
      merged.values().stream().skip(limit).findFirst().ifPresent(lines::add);
    }
    return new BatchListResponse(lines, next, !unreachable.isEmpty(), List.copyOf(unreachable));
  }
}
