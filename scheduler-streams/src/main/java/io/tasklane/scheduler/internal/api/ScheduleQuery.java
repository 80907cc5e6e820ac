package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.scheduler.internal.SchedulerRuntime;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.schedules.FireHistory;
import io.tasklane.scheduler.internal.schedules.FireLog;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

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
  private final SchedulerRuntime runtime;
  private final OwnerForward forward;

  ScheduleQuery(SchedulerRuntime runtime) {
    this.runtime = runtime;
    this.forward = new OwnerForward(runtime);
  }

  /** Schedule {@code name}: 200, 404 when unknown, 502/503 when the owner cannot answer. */
  StatusQuery.Answer find(String name, boolean forwarded) {
    KafkaStreams streams = runtime.streamsForApi();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return OwnerForward.error(
          503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    KeyQueryMetadata meta =
        streams.queryMetadataForKey(Stores.SCHEDULES, name, Serdes.String().serializer());
    HostInfo owner = meta == null ? null : meta.activeHost();
    if (owner == null || owner.equals(HostInfo.unavailable())) {
      return OwnerForward.error(503, "no instance owns the schedule right now (rebalancing)");
    }
    if (!owner.equals(runtime.self)) {
      return forwarded ? OwnerForward.error(503, "ownership moved; retry") : forward(owner, name);
    }
    try {
      ReadOnlyKeyValueStore<String, ScheduleState> store =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                      Stores.SCHEDULES, QueryableStoreTypes.<String, ScheduleState>keyValueStore())
                  .withPartition(meta.partition()));
      ScheduleState state = store.get(name);
      if (state == null) {
        return OwnerForward.error(404, "no schedule '" + name + "'");
      }
      ReadOnlyKeyValueStore<Bytes, byte[]> log =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                      Stores.SCHEDULE_FIRES, QueryableStoreTypes.<Bytes, byte[]>keyValueStore())
                  .withPartition(meta.partition()));
      ScheduleState full = FireLog.withHistory(log, name, state, FireHistory.KEEP);
      return new StatusQuery.Answer(200, ScheduleView.json(name, full, runtime.workers()));
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
