package io.tasklane.examples.orders;

/** The payload of the order tasks. */
public record OrderRef(long orderId) {}
