package io.tasklane.core.outbox;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of {@code tasklane_outbox}, column by column ({@link OutboxColumn}). JSON columns hold
 * their text as stored; {@code kind} holds the stored text too, so that a row with an unknown kind
 * can still be read and reported ({@link OutboxKind#parse}). Build one with {@link #builder()} or
 * map one from a record with {@link OutboxRows}. Immutable; any thread.
 *
 * @param id the row id assigned by the database; 0 on a row not inserted yet
 * @param taskId the task id
 * @param routingKey the Kafka key of the relayed record
 * @param kind {@link OutboxKind#column()} of the row's kind
 * @param handler the handler name, or null
 * @param taskKey the idempotency key, or null
 * @param payload JSON text: the task's payload, or the cancel's reason; or null
 * @param dueAt epoch millis the task is due (0 on a cancel)
 * @param maxAttempts attempts before the task goes dead (0 on a cancel)
 * @param timeoutMs timeout of one attempt (0 on a cancel)
 * @param backoff the retry policy as JSON, or null for the default
 * @param dependsOn the task ids to wait for as a JSON array, or null for none
 * @param headers string headers as a JSON object, or null for none
 * @param createdAt epoch millis of the enqueue or cancel request
 * @param options the task's {@code TaskOptions} as JSON, or null for none (and on a table of schema
 *     version 1, which has no such column)
 */
public record OutboxRow(
    long id,
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
    long createdAt,
    String options) {

  /** A row of the first table (schema version 1): no options. */
  public OutboxRow(
      long id,
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
    this(
        id,
        taskId,
        routingKey,
        kind,
        handler,
        taskKey,
        payload,
        dueAt,
        maxAttempts,
        timeoutMs,
        backoff,
        dependsOn,
        headers,
        createdAt,
        null);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this row's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    for (OutboxColumn c : OutboxColumn.values()) {
      c.set(b, c.get(this));
    }
    return b;
  }

  /** Column name to value, in table order (texts may be null). */
  public Map<String, Object> columns() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (OutboxColumn c : OutboxColumn.values()) {
      m.put(c.columnName(), c.get(this));
    }
    return m;
  }

  /** Collects the columns of an {@link OutboxRow}; not thread-safe. */
  public static final class Builder {
    private long id;
    private String taskId;
    private String routingKey;
    private String kind;
    private String handler;
    private String taskKey;
    private String payload;
    private long dueAt;
    private int maxAttempts;
    private long timeoutMs;
    private String backoff;
    private String dependsOn;
    private String headers;
    private long createdAt;
    private String options;

    private Builder() {}

    /**
     * Sets {@code column} from a value as a JDBC driver or a change-data-capture connector reports
     * it: text columns take any value's {@code toString()}, numeric columns a {@link Number} or a
     * decimal string.
     *
     * @throws IllegalArgumentException when a numeric column is null or not a number
     */
    public Builder read(OutboxColumn column, Object raw) {
      Object v =
          switch (column.value()) {
            case TEXT -> raw == null ? null : raw.toString();
            case LONG -> number(column, raw);
            case INT -> (int) number(column, raw);
          };
      column.set(this, v);
      return this;
    }

    private static long number(OutboxColumn column, Object raw) {
      if (raw instanceof Number n) {
        return n.longValue();
      }
      if (raw == null) {
        throw new IllegalArgumentException("column " + column.columnName() + " is missing or null");
      }
      return Long.parseLong(raw.toString());
    }

    public Builder id(long id) {
      this.id = id;
      return this;
    }

    public Builder taskId(String taskId) {
      this.taskId = taskId;
      return this;
    }

    public Builder routingKey(String routingKey) {
      this.routingKey = routingKey;
      return this;
    }

    public Builder kind(String kind) {
      this.kind = kind;
      return this;
    }

    public Builder kind(OutboxKind kind) {
      return kind(kind.column());
    }

    public Builder handler(String handler) {
      this.handler = handler;
      return this;
    }

    public Builder taskKey(String taskKey) {
      this.taskKey = taskKey;
      return this;
    }

    public Builder payload(String payload) {
      this.payload = payload;
      return this;
    }

    public Builder dueAt(long dueAt) {
      this.dueAt = dueAt;
      return this;
    }

    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    public Builder timeoutMs(long timeoutMs) {
      this.timeoutMs = timeoutMs;
      return this;
    }

    public Builder backoff(String backoff) {
      this.backoff = backoff;
      return this;
    }

    public Builder dependsOn(String dependsOn) {
      this.dependsOn = dependsOn;
      return this;
    }

    public Builder headers(String headers) {
      this.headers = headers;
      return this;
    }

    public Builder createdAt(long createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    public Builder options(String options) {
      this.options = options;
      return this;
    }

    public OutboxRow build() {
      return new OutboxRow(
          id,
          taskId,
          routingKey,
          kind,
          handler,
          taskKey,
          payload,
          dueAt,
          maxAttempts,
          timeoutMs,
          backoff,
          dependsOn,
          headers,
          createdAt,
          options);
    }
  }
}
