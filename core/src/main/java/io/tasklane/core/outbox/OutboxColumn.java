package io.tasklane.core.outbox;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The columns of {@code tasklane_outbox}, in table order: the row contract between the outbox
 * library (which inserts rows) and the relay (which reads them). Each column knows its SQL type,
 * its nullability, the {@link OutboxRow} component it holds and the schema version that added it
 * ({@link #since()}). {@link OutboxDdl} renders the table and each version's migration from these
 * constants. A new column comes with a new {@link #SCHEMA_VERSION}, is nullable, and is added at
 * the end; readers treat it as null on a table that has not been migrated yet. Immutable; any
 * thread.
 */
public enum OutboxColumn {
  /** The row id, assigned by the database on insert. */
  ID("id", "BIGINT", false, Value.LONG, OutboxRow::id, (b, v) -> b.id((long) v)),
  /** The task id ({@code TaskIds}). */
  TASK_ID("task_id", "CHAR(36)", false, Value.TEXT, OutboxRow::taskId, (b, v) -> b.taskId(s(v))),
  /** The Kafka key of the relayed record. */
  ROUTING_KEY(
      "routing_key",
      "VARCHAR(255)",
      false,
      Value.TEXT,
      OutboxRow::routingKey,
      (b, v) -> b.routingKey(s(v))),
  /** {@link OutboxKind#column()}. */
  KIND("kind", "VARCHAR(16)", false, Value.TEXT, OutboxRow::kind, (b, v) -> b.kind(s(v))),
  /** The handler name; null only on a cancel that named its task by id. */
  HANDLER(
      "handler", "VARCHAR(100)", true, Value.TEXT, OutboxRow::handler, (b, v) -> b.handler(s(v))),
  /** The idempotency key, or null. */
  TASK_KEY(
      "task_key", "VARCHAR(255)", true, Value.TEXT, OutboxRow::taskKey, (b, v) -> b.taskKey(s(v))),
  /** JSON text: a task's payload, or a cancel's reason as a JSON string. */
  PAYLOAD("payload", "LONGTEXT", true, Value.TEXT, OutboxRow::payload, (b, v) -> b.payload(s(v))),
  /** Epoch millis the task is due. */
  DUE_AT("due_at", "BIGINT", false, Value.LONG, OutboxRow::dueAt, (b, v) -> b.dueAt((long) v)),
  /** Attempts before the task goes dead. */
  MAX_ATTEMPTS(
      "max_attempts",
      "INT",
      false,
      Value.INT,
      OutboxRow::maxAttempts,
      (b, v) -> b.maxAttempts((int) v)),
  /** Timeout of one attempt, in millis. */
  TIMEOUT_MS(
      "timeout_ms",
      "BIGINT",
      false,
      Value.LONG,
      OutboxRow::timeoutMs,
      (b, v) -> b.timeoutMs((long) v)),
  /** The retry policy as JSON, or null for the default one. */
  BACKOFF(
      "backoff", "VARCHAR(4000)", true, Value.TEXT, OutboxRow::backoff, (b, v) -> b.backoff(s(v))),
  /** The ids of the tasks this one waits for, as a JSON array, or null for none. */
  DEPENDS_ON(
      "depends_on", "TEXT", true, Value.TEXT, OutboxRow::dependsOn, (b, v) -> b.dependsOn(s(v))),
  /** String headers as a JSON object, or null for none. */
  HEADERS("headers", "TEXT", true, Value.TEXT, OutboxRow::headers, (b, v) -> b.headers(s(v))),
  /** Epoch millis of the enqueue (a cancel's request time). */
  CREATED_AT(
      "created_at",
      "BIGINT",
      false,
      Value.LONG,
      OutboxRow::createdAt,
      (b, v) -> b.createdAt((long) v)),
  /** The task's {@code TaskOptions} as JSON, or null for none. Added by schema version 2. */
  OPTIONS("options", "TEXT", true, Value.TEXT, OutboxRow::options, (b, v) -> b.options(s(v)), 2);

  /** The schema version of the current table: the highest {@link #since()}. */
  public static final int SCHEMA_VERSION = 2;

  /** The Java shape of a column's value in an {@link OutboxRow}. */
  public enum Value {
    /** {@code String}, possibly null. */
    TEXT,
    /** {@code long}. */
    LONG,
    /** {@code int}. */
    INT
  }

  private final String columnName;
  private final String sqlType;
  private final boolean nullable;
  private final Value value;
  private final Function<OutboxRow, Object> getter;
  private final BiConsumer<OutboxRow.Builder, Object> setter;
  private final int since;

  OutboxColumn(
      String columnName,
      String sqlType,
      boolean nullable,
      Value value,
      Function<OutboxRow, Object> getter,
      BiConsumer<OutboxRow.Builder, Object> setter) {
    this(columnName, sqlType, nullable, value, getter, setter, 1);
  }

  OutboxColumn(
      String columnName,
      String sqlType,
      boolean nullable,
      Value value,
      Function<OutboxRow, Object> getter,
      BiConsumer<OutboxRow.Builder, Object> setter,
      int since) {
    this.since = since;
    this.columnName = columnName;
    this.sqlType = sqlType;
    this.nullable = nullable;
    this.value = value;
    this.getter = getter;
    this.setter = setter;
  }

  /** The columns an insert names: every one but the generated {@link #ID}, in table order. */
  public static List<OutboxColumn> inserted() {
    return Arrays.stream(values()).filter(c -> !c.generated()).toList();
  }

  /** The columns of the table as schema version {@code version} had it, in table order. */
  public static List<OutboxColumn> asOf(int version) {
    return Arrays.stream(values()).filter(c -> c.since <= version).toList();
  }

  /** The columns schema version {@code version} added, in table order (none for version 1). */
  public static List<OutboxColumn> addedBy(int version) {
    return version <= 1
        ? List.of()
        : Arrays.stream(values()).filter(c -> c.since == version).toList();
  }

  /** The schema version that added this column: 1 for the columns of the first table. */
  public int since() {
    return since;
  }

  /**
   * Whether every reader needs the column: those of the first table. A later column may be missing
   * from a table that has not been migrated yet; readers take it as null.
   */
  public boolean required() {
    return since == 1;
  }

  /** The SQL name, e.g. {@code task_id}. */
  public String columnName() {
    return columnName;
  }

  /**
   * The SQL type on MariaDB and MySQL, as the DDL and the Liquibase changelog declare it, e.g.
   * {@code VARCHAR(255)}.
   */
  public String sqlType() {
    return sqlType;
  }

  /** The SQL type on PostgreSQL, which has no {@code LONGTEXT}. */
  public String postgresqlType() {
    return sqlType.equals("LONGTEXT") ? "TEXT" : sqlType;
  }

  /** The declared length of a {@code CHAR}/{@code VARCHAR} column, or -1 for other types. */
  public int length() {
    int open = sqlType.indexOf('(');
    if (!sqlType.contains("CHAR") || open < 0) {
      return -1;
    }
    return Integer.parseInt(sqlType.substring(open + 1, sqlType.length() - 1));
  }

  /** Whether the column accepts NULL. */
  public boolean nullable() {
    return nullable;
  }

  /** Whether the database assigns the value (the auto-increment primary key). */
  public boolean generated() {
    return this == ID;
  }

  /** The Java shape of the value. */
  public Value value() {
    return value;
  }

  /**
   * This column's value in {@code row}: a {@code String} (or null), {@code Long} or {@code
   * Integer}.
   */
  public Object get(OutboxRow row) {
    return getter.apply(row);
  }

  /** Sets this column on {@code builder}; {@code v} must be of {@link #value()}'s shape. */
  void set(OutboxRow.Builder builder, Object v) {
    setter.accept(builder, v);
  }

  private static String s(Object v) {
    return (String) v;
  }
}
