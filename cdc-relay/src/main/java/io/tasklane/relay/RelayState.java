package io.tasklane.relay;

/** Where a relay instance is in its life. Reported on {@code /health}. */
public enum RelayState {
  /** Connecting, not yet contending for the leader lock. */
  STARTING,
  /** Waiting for the leader lock: another instance relays this database. */
  STANDBY,
  /** Holds the leader lock; the Debezium engine is starting or snapshotting. */
  LEADER,
  /** Leader and the connector's binlog stream is connected: committed rows now flow to Kafka. */
  STREAMING,
  /** Stopped relaying after an error that needs an operator (see {@code /health} lastError). */
  FAILED,
  /** Closed. */
  STOPPED;

  /** The lower-case name used on the wire. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
