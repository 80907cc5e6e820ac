package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TaskLogs;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import jakarta.inject.Singleton;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * {@code GET /api/tasks/{id}/logs}: a task's handler log lines from {@link Stores#TASK_LOGS}, read
 * on the instance owning the id's partition of {@code <ns>.logs}, forwarded there like status reads
 * ({@link OwnerForward}); the answer: {@link TaskLogsResponse}. Called on Micronaut's blocking
 * executor.
 */
@Singleton
@Internal
public final class LogQuery {
  private final FanOut fanOut;
  private final StreamsAccess local;
  private final OwnerForward forward;

  LogQuery(StreamsAccess local, FanOut fanOut, OwnerForward forward) {
    this.local = local;
    this.fanOut = fanOut;
    this.forward = forward;
  }

  /** The lines of task {@code id} (of {@code attempt} only when given): 200, even with none. */
  StatusQuery.Answer find(String id, Integer attempt, boolean forwarded) {
    try {
      KafkaStreams streams = fanOut.streams();
      KeyQueryMetadata meta = TaskReads.logsOwner(streams, id);
      HostInfo owner = meta == null ? null : meta.activeHost();
      if (owner == null || owner.equals(HostInfo.unavailable())) {
        return OwnerForward.error(503, "no instance owns the task's logs right now (rebalancing)");
      }
      if (!owner.equals(local.self())) {
        return forwarded
            ? OwnerForward.error(503, "ownership moved; retry")
            : forward.get(
                owner,
                "/api/tasks/"
                    + id
                    + "/logs?forwarded=true"
                    + (attempt == null ? "" : "&attempt=" + attempt),
                "the task's logs");
      }
      TaskLogs logs =
          TaskReads.of(
                  store ->
                      streams.store(
                          StoreQueryParameters.fromNameAndType(
                                  store, QueryableStoreTypes.keyValueStore())
                              .withPartition(meta.partition())))
              .logs(id);
      return new StatusQuery.Answer(200, json(id, logs, attempt));
    } catch (FanOut.Unavailable e) {
      return e.answer;
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "store not queryable: " + e.getMessage());
    }
  }

  static String json(String id, TaskLogs logs, Integer attempt) {
    return WireCodec.encodeToString(TaskLogsResponse.of(id, logs, attempt));
  }
}
