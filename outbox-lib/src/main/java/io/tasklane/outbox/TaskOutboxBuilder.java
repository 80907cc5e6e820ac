package io.tasklane.outbox;

import io.tasklane.core.PayloadCodec;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Builds a {@link TaskOutbox}: choose the settings, then the transaction source ({@link #jpa} or
 * {@link #jdbc}). Not thread-safe; the outboxes it builds are.
 *
 * <pre>{@code
 * TaskOutbox outbox = TaskOutbox.builder()
 *     .config(OutboxConfig.DEFAULT.withMaxPayloadBytes(512 * 1024))
 *     .codec(PayloadCodec.jackson(myObjectMapper))
 *     .jpa(entityManager);
 * }</pre>
 */
public final class TaskOutboxBuilder {
  private OutboxConfig config = OutboxConfig.DEFAULT;
  private PayloadCodec codec = PayloadCodec.jackson();
  private Clock clock = Clock.systemUTC();

  TaskOutboxBuilder() {}

  /** Limits and defaults; {@link OutboxConfig#DEFAULT} unless set. */
  public TaskOutboxBuilder config(OutboxConfig value) {
    this.config = Objects.requireNonNull(value, "config");
    return this;
  }

  /** How payloads become JSON; {@link PayloadCodec#jackson()} unless set. */
  public TaskOutboxBuilder codec(PayloadCodec value) {
    this.codec = Objects.requireNonNull(value, "codec");
    return this;
  }

  /** The clock of created and due times and of UUIDv7 ids; the UTC system clock unless set. */
  public TaskOutboxBuilder clock(Clock value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  /** An outbox writing through {@code entityManager}, which must be joined to a transaction. */
  public TaskOutbox jpa(EntityManager entityManager) {
    Objects.requireNonNull(entityManager, "entityManager");
    return jpa(() -> entityManager);
  }

  /**
   * An outbox writing through the entity manager {@code supplier} returns on each call (it may
   * throw {@link NoActiveTransactionException} itself when there is no transaction).
   */
  public TaskOutbox jpa(Supplier<? extends EntityManager> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return new DefaultTaskOutbox(rows(), new JpaRowSink(supplier));
  }

  /** See {@link JdbcTaskOutbox#of(Connection)}. */
  public JdbcTaskOutbox jdbc(Connection connection) {
    Objects.requireNonNull(connection, "connection");
    return new DefaultTaskOutbox(
        rows(), new JdbcRowSink(ConnectionSource.of(() -> connection, c -> {})));
  }

  /** See {@link JdbcTaskOutbox#of(ConnectionSource)}. */
  public JdbcTaskOutbox jdbc(ConnectionSource source) {
    Objects.requireNonNull(source, "source");
    return new DefaultTaskOutbox(rows(), new JdbcRowSink(source));
  }

  /** See {@link JdbcTaskOutbox#of(DataSource)}. */
  public JdbcTaskOutbox jdbc(DataSource transactionAwareDataSource) {
    Objects.requireNonNull(transactionAwareDataSource, "transactionAwareDataSource");
    return new DefaultTaskOutbox(
        rows(),
        new JdbcRowSink(
            ConnectionSource.of(transactionAwareDataSource::getConnection, Connection::close)));
  }

  private RowFactory rows() {
    return new RowFactory(config, codec, clock, new TraceHeaders(config.traceparent()));
  }
}
