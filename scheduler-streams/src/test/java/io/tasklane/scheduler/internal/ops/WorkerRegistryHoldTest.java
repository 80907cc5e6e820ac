package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Wire;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WorkerHeartbeat;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Whether the scheduler may send a handler's fires ahead: only when it has live workers and every
 * live one says {@code holdsDispatches} in its heartbeat; a worker of an earlier version (no such
 * field), a lost one's absence, or none at all decide it.
 */
class WorkerRegistryHoldTest {
  private static final long NOW = 1_800_000_000_000L;
  private final WorkerRegistry registry =
      new WorkerRegistry(Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC), 3);
  private long offset;

  private void beat(String id, String handler, boolean holds, long at) {
    WorkerHeartbeat b =
        new WorkerHeartbeat(
            Wire.VERSION,
            id,
            id,
            "h",
            1,
            "v",
            at,
            at,
            1_000,
            List.of(new WorkerHeartbeat.HandlerBeat(handler, 1, 0, List.of())),
            holds);
    registry.apply(new ConsumerRecord<>("ns.workers", 0, offset++, id, WireCodec.encode(b)));
  }

  @Test
  void noLiveWorkerMeansNoHolding() {
    assertThat(registry.allHold("report")).isFalse();
    beat("w1", "report", true, NOW - 10_000); // lost: 3 intervals of 1 s passed
    assertThat(registry.allHold("report")).isFalse();
  }

  @Test
  void everyLiveWorkerOfTheHandlerMustHold() {
    beat("w1", "report", true, NOW);
    assertThat(registry.allHold("report")).isTrue();
    assertThat(registry.allHold("other")).as("no worker of that handler").isFalse();

    beat("w2", "report", false, NOW);
    assertThat(registry.allHold("report")).as("a worker that would start a fire early").isFalse();

    beat("w2", "report", false, NOW - 10_000);
    assertThat(registry.allHold("report")).as("the old worker is lost").isTrue();
  }

  @Test
  void aHeartbeatWithoutTheFieldCountsAsNotHolding() {
    String old =
        "{\"v\":1,\"id\":\"w0\",\"name\":\"w0\",\"host\":\"h\",\"pid\":1,\"version\":\"0.0.9\","
            + "\"startedAt\":"
            + NOW
            + ",\"at\":"
            + NOW
            + ",\"intervalMs\":1000,\"handlers\":[{\"name\":\"report\",\"concurrency\":1,"
            + "\"inFlight\":0,\"running\":[]}]}";
    registry.apply(
        new ConsumerRecord<>(
            "ns.workers",
            0,
            offset++,
            "w0",
            old.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(registry.all()).hasSize(1);
    assertThat(registry.allHold("report")).isFalse();
  }
}
