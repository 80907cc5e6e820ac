package io.tasklane.scheduler.internal;

import io.micronaut.core.annotation.Internal;
import io.tasklane.core.WireCodec;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Finds a schedule's state ({@link ScheduleView}) through interactive queries: in this instance's
 * {@link Stores#SCHEDULES} store when it owns the name's partition, else by forwarding the request
 * to the owner ({@code application.server}) with the inter-instance token, as {@link StatusQuery}
 * does for tasks. Called on Micronaut's blocking executor.
 */
@Singleton
@Internal
public final class ScheduleQuery {
  private final SchedulerRuntime runtime;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  ScheduleQuery(SchedulerRuntime runtime) {
    this.runtime = runtime;
  }

  /** Schedule {@code name}: 200, 404 when unknown, 502/503 when the owner cannot answer. */
  StatusQuery.Answer find(String name, boolean forwarded) {
    KafkaStreams streams = runtime.streams();
    if (streams == null || streams.state() != KafkaStreams.State.RUNNING) {
      return error(503, "scheduler is " + (streams == null ? "starting" : streams.state()));
    }
    KeyQueryMetadata meta =
        streams.queryMetadataForKey(Stores.SCHEDULES, name, Serdes.String().serializer());
    HostInfo owner = meta == null ? null : meta.activeHost();
    if (owner == null || owner.equals(HostInfo.unavailable())) {
      return error(503, "no instance owns the schedule right now (rebalancing)");
    }
    if (!owner.equals(runtime.self)) {
      return forwarded ? error(503, "ownership moved; retry") : forward(owner, name);
    }
    try {
      ReadOnlyKeyValueStore<String, ScheduleState> store =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                      Stores.SCHEDULES, QueryableStoreTypes.<String, ScheduleState>keyValueStore())
                  .withPartition(meta.partition()));
      ScheduleState state = store.get(name);
      if (state == null) {
        return error(404, "no schedule '" + name + "'");
      }
      return new StatusQuery.Answer(200, ScheduleView.json(name, state, runtime.workers()));
    } catch (RuntimeException e) {
      return error(503, "store not queryable: " + e.getMessage());
    }
  }

  private StatusQuery.Answer forward(HostInfo owner, String name) {
    String url =
        "http://"
            + owner.host()
            + ":"
            + owner.port()
            + "/api/schedules/"
            + URLEncoder.encode(name, StandardCharsets.UTF_8)
            + "?forwarded=true";
    try {
      HttpRequest.Builder req =
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
      // The instances' shared credential, never the caller's token.
      req.header("Authorization", "Bearer " + runtime.interInstanceToken);
      HttpResponse<String> resp = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
      if (resp.statusCode() == 401) {
        return error(
            502,
            "instance "
                + owner
                + " owns the schedule but refused this instance's inter-instance token: give every"
                + " instance the same tasklane.scheduler.inter-instance-token");
      }
      return new StatusQuery.Answer(resp.statusCode(), resp.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(503, "interrupted");
    } catch (java.io.IOException e) {
      return error(502, "owner " + owner + " did not answer: " + e.getMessage());
    }
  }

  private static StatusQuery.Answer error(int status, String message) {
    return new StatusQuery.Answer(status, WireCodec.encodeToString(Map.of("error", message)));
  }
}
