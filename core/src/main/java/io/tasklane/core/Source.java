package io.tasklane.core;

/** Where a task came from: the outbox table and row id that carried it (null for API tasks). */
public record Source(String table, long rowId) {}
