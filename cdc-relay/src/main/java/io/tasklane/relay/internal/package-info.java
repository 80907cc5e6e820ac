/**
 * Machinery of the relay: the Debezium engine and its batch consumer, the row mapper, the Kafka
 * sender, the leader lock, purge, binlog guard, metrics and the HTTP endpoints. Not an API.
 */
package io.tasklane.relay.internal;
