package io.tasklane.relay.internal;

import io.tasklane.core.outbox.OutboxKind;

/** What one outbox insert becomes: a record for {@code <ns>.tasks} or a dead letter. */
sealed interface Mapped {

  /** A valid task or cancel: Kafka key (routing key) and encoded value. */
  record Relayed(String key, byte[] value, OutboxKind kind) implements Mapped {}

  /** A row that breaks the contract; {@code reason} names the field and the problem. */
  record Rejected(String reason) implements Mapped {}
}
