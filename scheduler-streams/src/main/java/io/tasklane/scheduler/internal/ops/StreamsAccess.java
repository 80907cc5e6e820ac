package io.tasklane.scheduler.internal.ops;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;

/**
 * This instance's running Kafka Streams as the HTTP API and {@code /health} see it: the client
 * (null until the HTTP server knows its port), this instance's {@code application.server}, and why
 * processing stopped, if it did. Read on Micronaut's event-loop, blocking and health threads;
 * thread-safe (volatile snapshots, never a lock).
 */
public interface StreamsAccess {
  /** The Streams client as it is now; null while the scheduler is starting. */
  KafkaStreams streams();

  /**
   * The Streams client for an API read or command: while it is REBALANCING, waits a few seconds for
   * it to run again, so that a short rebalance delays an answer instead of failing it with 503.
   * Called on Micronaut's blocking executor only, never on an event-loop or stream thread.
   */
  KafkaStreams streamsForApi();

  /** This instance's {@code application.server} (host and HTTP port); null while starting. */
  HostInfo self();

  /** Why the scheduler stopped processing while running, or null. */
  String haltReason();

  /** Whether Kafka Streams has reached RUNNING since this instance started; any thread. */
  boolean hasRun();
}
