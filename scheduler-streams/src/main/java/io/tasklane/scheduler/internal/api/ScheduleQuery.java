package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import io.tasklane.scheduler.internal.schedules.FireHistory;
import io.tasklane.scheduler.internal.schedules.ScheduleReads;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * Finds a schedule's state ({@link ScheduleView}) through interactive queries: in this instance's
 * {@link Stores#SCHEDULES} store, with its finished fires from {@link Stores#SCHEDULE_FIRES}, when
 * it owns the name's partition, else by forwarding the request to the owner ({@code
 * application.server}) with the inter-instance token, as {@link StatusQuery} does for tasks. Called
 * on Micronaut's blocking executor.
 */
@Singleton
@Internal
public final class ScheduleQuery {
  private final StreamsAccess local;
  private final OwnerForward forward;
  private final HandlerWorkers workers;

  ScheduleQuery(StreamsAccess local, OwnerForward forward, HandlerWorkers workers) {
    this.local = local;
    this.forward = forward;
    this.workers = workers;
  }

  /** Schedule {@code name}: 200, 404 when unknown, 502/503 when the owner cannot answer. */
  StatusQuery.Answer find(String name, boolean forwarded) {
    KafkaStreams streams = local.streamsForApi();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return OwnerForward.error(
          503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    KeyQueryMetadata meta = ScheduleReads.owner(streams, name);
    HostInfo owner = meta == null ? null : meta.activeHost();
    if (owner == null || owner.equals(HostInfo.unavailable())) {
      return OwnerForward.error(503, "no instance owns the schedule right now (rebalancing)");
    }
    if (!owner.equals(local.self())) {
      return forwarded ? OwnerForward.error(503, "ownership moved; retry") : forward(owner, name);
    }
    try {
      ScheduleReads reads =
          ScheduleReads.of(
              store ->
                  streams.store(
                      StoreQueryParameters.fromNameAndType(
                              store, QueryableStoreTypes.keyValueStore())
                          .withPartition(meta.partition())));
      ScheduleState state = reads.state(name);
      if (state == null) {
        return OwnerForward.error(404, "no schedule '" + name + "'");
      }
      ScheduleState full = reads.withHistory(name, state, FireHistory.KEEP);
      return new StatusQuery.Answer(200, ScheduleView.json(name, full, workers));
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "store not queryable: " + e.getMessage());
    }
  }

  private StatusQuery.Answer forward(HostInfo owner, String name) {
    return forward.get(
        owner,
        "/api/schedules/" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "?forwarded=true",
        "the schedule");
  }
}
