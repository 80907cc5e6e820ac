package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.sql.Types;
import org.hibernate.annotations.JdbcTypeCode;

/**
 * One row of {@code tasklane_outbox} as a JPA entity. Add it to your persistence unit (Micronaut:
 * {@code jpa.default.entity-scan.packages: io.tasklane.outbox}; plain JPA: {@code
 * <class>io.tasklane.outbox.OutboxEntry</class>}) so that {@link TaskOutbox#jpa} can persist it.
 * Create rows only through {@link TaskOutbox}; every column is insert-only ({@code
 * updatable=false}), because the relay reads inserts from the binlog and ignores updates. Reading
 * rows (diagnostics, tests) is fine. The columns are those of {@link
 * io.tasklane.core.outbox.OutboxColumn}.
 */
@Entity(name = "TasklaneOutboxEntry")
@Table(name = OutboxSchema.TABLE)
public class OutboxEntry {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  @Column(name = "id", updatable = false)
  private Long id;

  /**
   * CHAR(36) on every database; the type code tells Hibernate's schema validation to expect CHAR
   * (PostgreSQL reports it as bpchar). Other JPA providers ignore the Hibernate annotation.
   */
  @JdbcTypeCode(Types.CHAR)
  @Column(name = "task_id", length = 36, nullable = false, updatable = false)
  private String taskId;

  @Column(name = "routing_key", nullable = false, updatable = false)
  private String routingKey;

  @Column(name = "kind", length = 16, nullable = false, updatable = false)
  private String kind;

  @Column(name = "handler", length = 100, updatable = false)
  private String handler;

  @Column(name = "task_key", updatable = false)
  private String taskKey;

  /** Longest length: LONGTEXT on MariaDB/MySQL, TEXT on PostgreSQL (Hibernate's Length.LONG32). */
  @Column(name = "payload", length = Integer.MAX_VALUE, updatable = false)
  private String payload;

  @Column(name = "due_at", nullable = false, updatable = false)
  private long dueAt;

  @Column(name = "max_attempts", nullable = false, updatable = false)
  private int maxAttempts;

  @Column(name = "timeout_ms", nullable = false, updatable = false)
  private long timeoutMs;

  @Column(name = "backoff", length = 4000, updatable = false)
  private String backoff;

  @Column(name = "depends_on", columnDefinition = "TEXT", updatable = false)
  private String dependsOn;

  @Column(name = "headers", columnDefinition = "TEXT", updatable = false)
  private String headers;

  @Column(name = "created_at", nullable = false, updatable = false)
  private long createdAt;

  /** Added by schema version 2 ({@link OutboxSchema#FLYWAY_MIGRATION_V2}). */
  @Column(name = "options", columnDefinition = "TEXT", updatable = false)
  private String options;

  /** For JPA. */
  protected OutboxEntry() {}

  static OutboxEntry of(OutboxRow row) {
    var e = new OutboxEntry();
    e.taskId = row.taskId();
    e.routingKey = row.routingKey();
    e.kind = row.kind();
    e.handler = row.handler();
    e.taskKey = row.taskKey();
    e.payload = row.payload();
    e.dueAt = row.dueAt();
    e.maxAttempts = row.maxAttempts();
    e.timeoutMs = row.timeoutMs();
    e.backoff = row.backoff();
    e.dependsOn = row.dependsOn();
    e.headers = row.headers();
    e.createdAt = row.createdAt();
    e.options = row.options();
    return e;
  }

  /** The row id, assigned by the database (AUTO_INCREMENT) on insert. */
  public Long getId() {
    return id;
  }

  public String getTaskId() {
    return taskId;
  }

  public String getRoutingKey() {
    return routingKey;
  }

  /** {@link OutboxKind#column()}: {@code TASK} or {@code CANCEL}. */
  public String getKind() {
    return kind;
  }

  public String getHandler() {
    return handler;
  }

  public String getTaskKey() {
    return taskKey;
  }

  /** JSON text; for a CANCEL the reason as a JSON string, or null. */
  public String getPayload() {
    return payload;
  }

  public long getDueAt() {
    return dueAt;
  }

  public int getMaxAttempts() {
    return maxAttempts;
  }

  public long getTimeoutMs() {
    return timeoutMs;
  }

  public String getBackoff() {
    return backoff;
  }

  public String getDependsOn() {
    return dependsOn;
  }

  public String getHeaders() {
    return headers;
  }

  public long getCreatedAt() {
    return createdAt;
  }

  /** The task's {@code TaskOptions} as JSON, or null for none. */
  public String getOptions() {
    return options;
  }
}
