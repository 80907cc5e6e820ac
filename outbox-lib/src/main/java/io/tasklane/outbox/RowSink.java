package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import java.util.List;

/** Where validated rows go: the current transaction, through JDBC or JPA. */
interface RowSink {
  /**
   * Inserts {@code rows} in the caller's transaction.
   *
   * @throws NoActiveTransactionException when there is none; nothing is written
   */
  void insert(List<OutboxRow> rows);
}
