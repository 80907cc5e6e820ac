package io.tasklane.scheduler.internal;

import io.tasklane.scheduler.internal.ops.StreamsAccess;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The running Kafka Streams of this instance, its {@code application.server} and the reason it
 * halted: set by {@link SchedulerRuntime} (on the server's startup thread and the topic-watcher
 * timer thread), read by the API and {@code /health} on Micronaut's threads. Thread-safe (volatile
 * fields).
 */
final class LocalStreams implements StreamsAccess {
  /** How long an API call waits for a rebalance to end before it answers 503. */
  static final Duration API_REBALANCE_WAIT = Duration.ofSeconds(5);

  private volatile KafkaStreams streams;
  private volatile HostInfo self;
  private volatile String haltReason;
  private volatile boolean hasRun;

  @Override
  public KafkaStreams streams() {
    return streams;
  }

  @Override
  public KafkaStreams streamsForApi() {
    KafkaStreams s = streams;
    long until = System.nanoTime() + API_REBALANCE_WAIT.toNanos();
    while (s != null && s.state() == KafkaStreams.State.REBALANCING && System.nanoTime() < until) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return s;
  }

  @Override
  public HostInfo self() {
    return self;
  }

  @Override
  public String haltReason() {
    return haltReason;
  }

  @Override
  public boolean hasRun() {
    return hasRun;
  }

  /** The stream-state listener's thread: Kafka Streams moved to {@code now}. */
  void state(KafkaStreams.State now) {
    if (now == KafkaStreams.State.RUNNING) {
      hasRun = true;
    }
  }

  void self(HostInfo self) {
    this.self = self;
  }

  void streams(KafkaStreams streams) {
    this.streams = streams;
  }

  void halted(String reason) {
    this.haltReason = reason;
  }
}
