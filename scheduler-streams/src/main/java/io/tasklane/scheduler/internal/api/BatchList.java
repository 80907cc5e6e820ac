package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.batches.BatchReads;
import io.tasklane.scheduler.internal.batches.BatchState;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The batch list ({@code GET /api/batches}): every instance lists the batch summaries of the
 * partitions it owns by id after the cursor (at most {@code limit + 1} per partition, members never
 * read); the instance asked fans the read out to every other instance ({@link FanOut}) and merges
 * the pages by id. During a rebalance an id may come from two instances: the one further on wins
 * (sealed before open, then more members terminal). An instance that does not answer makes the page
 * {@code partial} and is named in {@code unreachable}. Called on Micronaut's blocking executor;
 * thread-safe.
 */
@Singleton
@Internal
public final class BatchList {
  /** The page size when none is asked for. */
  static final int DEFAULT_LIMIT = 50;

  /** The largest page. */
  static final int MAX_LIMIT = 500;

  /** The states a listing can be narrowed to ({@link BatchResponse#state()}). */
  static final Set<String> STATES = Set.of("OPEN", "RUNNING", "COMPLETE", "SUCCEEDED");

  private final FanOut fanOut;

  BatchList(FanOut fanOut) {
    this.fanOut = fanOut;
  }

  /**
   * A page of at most {@code limit} batches with ids after {@code cursor} (null: from the first) in
   * state {@code state} (null: any), in id order: 200 with {@code batches} and {@code nextCursor}
   * (null on the last page), or 503 while the scheduler is not running.
   */
  StatusQuery.Answer page(String cursor, int limit, String state, boolean forwarded) {
    TreeMap<String, BatchResponse> merged = new TreeMap<>();
    List<String> unreachable = new ArrayList<>();
    KafkaStreams streams;
    try {
      streams = fanOut.streams();
      Predicate<BatchState> keep = s -> state == null || BatchResponse.of(s).state().equals(state);
      for (int partition : fanOut.localPartitions()) {
        for (BatchState s : BatchReads.page(streams, partition, cursor, limit + 1, keep)) {
          keepFurther(merged, BatchResponse.of(s));
        }
      }
    } catch (FanOut.Unavailable e) {
      return e.answer;
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "store not queryable: " + e.getMessage());
    }
    if (!forwarded) {
      FanOut.Answers others = fanOut.others(streams, path(cursor, limit, state), "batches");
      unreachable.addAll(others.missing());
      for (String body : others.bodies()) {
        for (JsonNode n : WireCodec.readTree(body).path("batches")) {
          keepFurther(merged, WireCodec.treeToValue(n, BatchResponse.class));
        }
      }
    }
    while (merged.size() > limit + 1) {
      merged.pollLastEntry();
    }
    BatchListResponse page = BatchListResponse.page(merged, limit, unreachable, forwarded);
    return new StatusQuery.Answer(200, WireCodec.encodeToString(page));
  }

  private static void keepFurther(TreeMap<String, BatchResponse> into, BatchResponse b) {
    into.merge(b.id(), b, (a, c) -> further(a) >= further(c) ? a : c);
  }

  private static long further(BatchResponse b) {
    return (b.sealed() ? 1L << 62 : 0) + b.total() - b.pending() + b.lateParts();
  }

  private static String path(String cursor, int limit, String state) {
    return "/api/batches?forwarded=true&limit="
        + limit
        + (state == null ? "" : "&state=" + state)
        + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
  }
}
