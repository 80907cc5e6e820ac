package io.tasklane.scheduler.internal.ops;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.reactivestreams.Publisher;

/**
 * {@code /health} and readiness: UP once Kafka Streams has been RUNNING (its first rebalance
 * assigned and restored this instance's tasks) and while it is RUNNING or rebalancing again; DOWN
 * during the start's first rebalance, when halted and otherwise. Answered on the caller's thread.
 */
@Singleton
@Internal
public final class StreamsHealth implements HealthIndicator {
  private final StreamsAccess local;

  StreamsHealth(StreamsAccess local) {
    this.local = local;
  }

  @Override
  public Publisher<HealthResult> getResult() {
    KafkaStreams s = local.streams();
    KafkaStreams.State state = s == null ? KafkaStreams.State.CREATED : s.state();
    String halted = local.haltReason();
    boolean up = up(state, local.hasRun(), halted);
    return Publishers.just(
        HealthResult.builder("kafka-streams", up ? HealthStatus.UP : HealthStatus.DOWN)
            .details(
                halted == null
                    ? Map.of("state", state.name())
                    : Map.of("state", state.name(), "stopped", halted))
            .build());
  }

  /** The rule: not halted, RUNNING, or rebalancing after it ran once. */
  static boolean up(KafkaStreams.State state, boolean hasRun, String halted) {
    return halted == null
        && (state == KafkaStreams.State.RUNNING
            || (state == KafkaStreams.State.REBALANCING && hasRun));
  }
}
