package io.tasklane.scheduler.internal.lifecycle;

/**
 * A task waiting for another one (dependency protocol): its id and the routing key that reaches its
 * partition.
 */
public record Waiter(String id, String routingKey) {}
