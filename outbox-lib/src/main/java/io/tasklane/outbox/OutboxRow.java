package io.tasklane.outbox;

/** One row of {@code tasklane_outbox} as written (the id column is the database's). */
record OutboxRow(
    String taskId,
    String routingKey,
    String kind,
    String handler,
    String taskKey,
    String payload,
    long dueAt,
    int maxAttempts,
    long timeoutMs,
    String backoff,
    String dependsOn,
    String headers,
    long createdAt) {

  static final String TASK = "TASK";
  static final String CANCEL = "CANCEL";
}
