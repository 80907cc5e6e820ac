package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * Finds a task's record through interactive queries: in this instance's store when it owns the
 * routing key's partition, else by forwarding the HTTP request to the owner ({@code
 * application.server}) with the inter-instance token. Called on Micronaut's blocking executor.
 */
@Singleton
@Internal
public final class StatusQuery {
  /** The answer: an HTTP status and a JSON body. */
  public record Answer(int status, String json) {}

  private final StreamsAccess local;
  private final OwnerForward forward;

  StatusQuery(StreamsAccess local, OwnerForward forward) {
    this.local = local;
    this.forward = forward;
  }

  /**
   * The record of task {@code id} under {@code routingKey} (null: the id): 200, or 404 when no task
   * {@code id} lives under that routing key (also when it exists under another one: a command sent
   * with that key would miss it), 502/503 when the owner cannot answer.
   */
  Answer find(String id, String routingKey, boolean forwarded) {
    KafkaStreams streams = local.streamsForApi();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return OwnerForward.error(
          503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    String key = routingKey == null ? id : routingKey;
    KeyQueryMetadata meta = TaskReads.owner(streams, key);
    HostInfo owner = meta == null ? null : meta.activeHost();
    if (owner == null || owner.equals(HostInfo.unavailable())) {
      return OwnerForward.error(503, "no instance owns the key right now (rebalancing)");
    }
    if (!owner.equals(local.self())) {
      return forwarded
          ? OwnerForward.error(503, "ownership moved; retry")
          : forward(owner, id, key);
    }
    try {
      TaskRecord record =
          TaskReads.of(
                  name ->
                      streams.store(
                          StoreQueryParameters.fromNameAndType(
                                  name, QueryableStoreTypes.keyValueStore())
                              .withPartition(meta.partition())))
              .task(id);
      if (record == null || (record.task() != null && !record.task().routingKey().equals(key))) {
        return OwnerForward.error(404, notFound(id, routingKey));
      }
      return new Answer(200, TaskView.json(record));
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "store not queryable: " + e.getMessage());
    }
  }

  private static String notFound(String id, String routingKey) {
    return routingKey == null
        ? "no task " + id + " (a task with an ordering key needs ?routingKey=<its ordering key>)"
        : "no task " + id + " under routingKey '" + routingKey + "'";
  }

  private Answer forward(HostInfo owner, String id, String key) {
    return forward.get(
        owner,
        "/api/tasks/"
            + URLEncoder.encode(id, StandardCharsets.UTF_8)
            + "?forwarded=true&routingKey="
            + URLEncoder.encode(key, StandardCharsets.UTF_8),
        "the task");
  }
}
