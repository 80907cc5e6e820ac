package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

/**
 * The scheduler is ready once Kafka Streams ran with its tasks, not during the start's first
 * rebalance; a later rebalance keeps it ready (the API waits for it), a halt does not.
 */
class StreamsHealthTest {
  @Test
  void readyOnlyOnceStreamsHasRun() {
    assertThat(StreamsHealth.up(State.CREATED, false, null)).isFalse();
    assertThat(StreamsHealth.up(State.REBALANCING, false, null))
        .as("the start's first rebalance: no tasks yet")
        .isFalse();
    assertThat(StreamsHealth.up(State.RUNNING, true, null)).isTrue();
    assertThat(StreamsHealth.up(State.REBALANCING, true, null)).isTrue();
    assertThat(StreamsHealth.up(State.RUNNING, true, "a fatal error")).isFalse();
    assertThat(StreamsHealth.up(State.ERROR, true, null)).isFalse();
  }
}
