package io.tasklane.scheduler.internal.ops;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.util.Map;
import org.reactivestreams.Publisher;

/**
 * {@code /health} detail {@code kafka-replication}: stays UP (the cluster still takes writes while
 * a partition keeps its min ISR), with a warning naming the topics whose partitions have fewer
 * in-sync replicas than replicas as of the last topic refresh. Called on Micronaut's health
 * executor; reads a volatile snapshot only.
 */
@Singleton
@Internal
public final class ReplicationHealth implements HealthIndicator {
  private final TopicWatcher topics;

  ReplicationHealth(TopicWatcher topics) {
    this.topics = topics;
  }

  @Override
  public Publisher<HealthResult> getResult() {
    Map<String, Integer> under = topics.underReplicated();
    int partitions = under.values().stream().mapToInt(Integer::intValue).sum();
    Map<String, Object> details =
        under.isEmpty()
            ? Map.of("underReplicatedPartitions", 0)
            : Map.of(
                "underReplicatedPartitions",
                partitions,
                "warning",
                "under-replicated partitions (a broker is down or behind): " + under);
    return Publishers.just(
        HealthResult.builder("kafka-replication", HealthStatus.UP).details(details).build());
  }
}
