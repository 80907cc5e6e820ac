/**
 * Tasklane's wire contract: the records that travel on every topic, the {@link
 * io.tasklane.core.Topics} names, the JSON codec, task ids and validation limits.
 *
 * <p>This package depends only on Jackson and kafka-clients, so a worker never drags in Debezium
 * and the relay never drags in Micronaut. All types are immutable and thread-safe.
 */
package io.tasklane.core;
