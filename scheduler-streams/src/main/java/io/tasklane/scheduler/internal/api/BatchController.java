package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.tasklane.core.BatchPart;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.batches.BatchReads;
import io.tasklane.scheduler.internal.batches.BatchState;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@code GET /api/batches} (viewer): a page of batches ({@link BatchList}). {@code GET
 * /api/batches/{id}} (viewer): a batch's status ({@link BatchResponse}) read where its key's
 * partition lives, in this instance's store or forwarded to the owner with the inter-instance
 * token, as a schedule's is. Called on Micronaut's blocking executor.
 */
@Controller("/api/batches")
@ExecuteOn(TaskExecutors.BLOCKING)
@Internal
public class BatchController {
  private final StreamsAccess local;
  private final OwnerForward forward;
  private final BatchList list;

  BatchController(StreamsAccess local, OwnerForward forward, BatchList list) {
    this.local = local;
    this.forward = forward;
    this.list = list;
  }

  /**
   * A page of batches in id order, from every instance ({@link BatchList}): {@code limit} 1 to 500
   * (default 50), {@code cursor} the previous page's {@code nextCursor}, {@code state} one of OPEN,
   * RUNNING, COMPLETE, SUCCEEDED (default any).
   */
  @Get(produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> list(
      @Nullable @QueryValue String cursor,
      @Nullable @QueryValue Integer limit,
      @Nullable @QueryValue String state,
      @Nullable @QueryValue Boolean forwarded) {
    int n = limit == null ? BatchList.DEFAULT_LIMIT : limit;
    if (n < 1 || n > BatchList.MAX_LIMIT) {
      return ApiErrors.json(400, "limit: " + n + " is outside 1 to " + BatchList.MAX_LIMIT);
    }
    if (cursor != null && !BatchPart.ID.matcher(cursor).matches()) {
      return ApiErrors.json(400, "cursor: not a batch id (send the nextCursor of a page)");
    }
    if (state != null && !BatchList.STATES.contains(state)) {
      return ApiErrors.json(
          400, "state: '" + state + "' is not one of OPEN, RUNNING, COMPLETE, SUCCEEDED");
    }
    return answer(list.page(cursor, n, state, Boolean.TRUE.equals(forwarded)));
  }

  @Get(value = "/{id}", produces = MediaType.APPLICATION_JSON)
  HttpResponse<String> get(@PathVariable String id, @Nullable @QueryValue Boolean forwarded) {
    if (!BatchPart.ID.matcher(id).matches()) {
      return ApiErrors.json(400, "id: not a batch id: " + BatchPart.ID.pattern());
    }
    return answer(find(id, Boolean.TRUE.equals(forwarded)));
  }

  private static HttpResponse<String> answer(StatusQuery.Answer a) {
    return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(a.status()))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(a.json());
  }

  private StatusQuery.Answer find(String id, boolean forwarded) {
    KafkaStreams streams = local.streamsForApi();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return OwnerForward.error(
          503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    KeyQueryMetadata meta = BatchReads.owner(streams, id);
    HostInfo owner = meta == null ? null : meta.activeHost();
    if (owner == null || owner.equals(HostInfo.unavailable())) {
      return OwnerForward.error(503, "no instance owns the batch right now (rebalancing)");
    }
    if (!owner.equals(local.self())) {
      return forwarded
          ? OwnerForward.error(503, "ownership moved; retry")
          : forward.get(
              owner,
              "/api/batches/" + URLEncoder.encode(id, StandardCharsets.UTF_8) + "?forwarded=true",
              "the batch");
    }
    try {
      BatchState s = BatchReads.state(streams, meta.partition(), id);
      if (s == null) {
        return OwnerForward.error(404, "no batch '" + id + "'");
      }
      return new StatusQuery.Answer(200, WireCodec.encodeToString(BatchResponse.of(s)));
    } catch (RuntimeException e) {
      return OwnerForward.error(503, "store not queryable: " + e.getMessage());
    }
  }
}
