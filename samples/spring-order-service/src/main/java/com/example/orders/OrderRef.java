package com.example.orders;

/** The payload of the order tasks (JSON on the wire). */
public record OrderRef(long orderId) {}
