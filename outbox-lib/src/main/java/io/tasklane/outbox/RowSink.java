package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import java.util.List;
import java.util.function.Function;

/** Where validated rows go: the current transaction, through JDBC or JPA. */
interface RowSink {
  /**
   * Inserts {@code rows} in the caller's transaction.
   *
   * @throws NoActiveTransactionException when there is none; nothing is written
   */
  default void insert(List<OutboxRow> rows) {
    write(
        tx -> {
          tx.insert(rows);
          return null;
        });
  }

  /**
   * Runs {@code work} on the caller's thread against the caller's transaction (one connection for
   * the whole call) and returns what it returns.
   *
   * @throws NoActiveTransactionException when there is none; nothing is written
   */
  <T> T write(Function<Tx, T> work);

  /** The caller's transaction, for the duration of one {@link #write}. */
  interface Tx {
    /** Inserts {@code rows} into {@code tasklane_outbox}. */
    void insert(List<OutboxRow> rows);

    /** Claims unique windows in {@code tasklane_unique} ({@link UniqueWindows#claim}). */
    List<UniqueWindows.Outcome> claim(List<UniqueWindows.Claim> claims);
  }
}
