package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import io.tasklane.scheduler.internal.schedules.ScheduleReads;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * The schedule list ({@code GET /api/schedules}): every instance lists the schedules of the
 * partitions it owns ({@link Stores#SCHEDULES}, deleted ones left out) by name after the cursor;
 * the instance asked fans the read out to every other instance of the application ({@code
 * application.server} of each Streams client, with the inter-instance token and {@code
 * forwarded=true}, through {@link OwnerForward}) and merges the pages by name. During a rebalance a
 * name may come from two instances: the higher version wins. An instance that does not answer makes
 * the page {@code partial} and is named in {@code unreachable} ({@link ScheduleListResponse}).
 * Called on Micronaut's blocking executor; thread-safe.
 */
@Singleton
@Internal
public final class ScheduleList {
  /** The page size when none is asked for. */
  static final int DEFAULT_LIMIT = 50;

  /** The largest page. */
  static final int MAX_LIMIT = 500;

  private final StreamsAccess local;
  private final OwnerForward forward;
  private final Clock clock;

  @Inject
  ScheduleList(StreamsAccess local, OwnerForward forward) {
    this(local, forward, Clock.systemUTC());
  }

  ScheduleList(StreamsAccess local, OwnerForward forward, Clock clock) {
    this.local = local;
    this.forward = forward;
    this.clock = clock;
  }

  /**
   * A page of at most {@code limit} schedules with names after {@code cursor} (null: from the
   * first), in name order: 200 with {@code schedules} and {@code nextCursor} (null on the last
   * page), or 503 while the scheduler is not running.
   */
  StatusQuery.Answer page(String cursor, int limit, boolean forwarded) {
    KafkaStreams streams = local.streamsForApi();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return OwnerForward.error(
          503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    TreeMap<String, ScheduleListResponse.Line> merged = new TreeMap<>();
    List<String> unreachable = new ArrayList<>();
    try {
      local(streams, cursor, limit, clock.millis(), merged);
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "store not queryable: " + e.getMessage());
    }
    if (!forwarded) {
      for (StreamsMetadata m : streams.metadataForAllStreamsClients()) {
        HostInfo host = m.hostInfo();
        if (host.equals(local.self()) || host.equals(HostInfo.unavailable())) {
          continue;
        }
        StatusQuery.Answer a = forward.get(host, path(cursor, limit), "schedules");
        if (a.status() != 200) {
          unreachable.add(host.host() + ":" + host.port());
          continue;
        }
        for (JsonNode n : WireCodec.readTree(a.json()).path("schedules")) {
          keepNewer(merged, WireCodec.treeToValue(n, ScheduleListResponse.Line.class));
        }
      }
    }
    ScheduleListResponse page = ScheduleListResponse.page(merged, limit, unreachable, forwarded);
    return new StatusQuery.Answer(200, WireCodec.encodeToString(page));
  }

  /**
   * This instance's active schedules after {@code cursor}: at most {@code limit + 1}, each with its
   * newest fire whose instant has passed (from its state or from the fire log, {@link
   * ScheduleReads#withLatest}).
   */
  private static void local(
      KafkaStreams streams,
      String cursor,
      int limit,
      long now,
      TreeMap<String, ScheduleListResponse.Line> into) {
    ScheduleReads reads =
        ScheduleReads.of(
            store ->
                streams.store(
                    StoreQueryParameters.fromNameAndType(
                        store, QueryableStoreTypes.keyValueStore())));
    TreeMap<String, ScheduleState> page =
        reads.first(
            limit + 1,
            (name, s) ->
                !s.deleted()
                    && s.definition() != null
                    && (cursor == null || name.compareTo(cursor) > 0));
    page.forEach(
        (name, s) -> {
          ScheduleListResponse.Line line =
              ScheduleListResponse.Line.of(name, reads.withLatest(name, s, now), now);
          if (line != null) {
            keepNewer(into, line);
            if (into.size() > limit + 1) {
              into.pollLastEntry();
            }
          }
        });
  }

  private static void keepNewer(
      TreeMap<String, ScheduleListResponse.Line> into, ScheduleListResponse.Line line) {
    into.merge(line.name(), line, (a, b) -> a.version() >= b.version() ? a : b);
  }

  private static String path(String cursor, int limit) {
    return "/api/schedules?forwarded=true&limit="
        + limit
        + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
  }
}
