/**
 * The Tasklane CDC relay: an embedded Debezium engine that turns committed {@code tasklane_outbox}
 * rows into records on {@code <ns>.tasks}, with a leader lock, outbox purge and binlog guard.
 *
 * <p>Start it as a process with {@link io.tasklane.relay.RelayApp} or embed it with {@link
 * io.tasklane.relay.Relay#start}. Configuration is one {@link io.tasklane.relay.RelayConfig}. Plain
 * Java: the relay never depends on Micronaut.
 */
package io.tasklane.relay;
