package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Writes through a JPA entity manager joined to a transaction: one row is persisted as an {@link
 * OutboxEntry}; many go as one JDBC batch on Hibernate's connection (Hibernate cannot batch
 * IDENTITY inserts), or entity by entity on other providers. Unique windows are claimed with SQL on
 * the session's own connection, so they need Hibernate.
 */
final class JpaRowSink implements RowSink {
  private static final boolean HIBERNATE = hibernatePresent();

  private final Supplier<? extends EntityManager> entityManagers;

  JpaRowSink(Supplier<? extends EntityManager> entityManagers) {
    this.entityManagers = entityManagers;
  }

  @Override
  public <T> T write(Function<Tx, T> work) {
    EntityManager em = entityManagers.get();
    if (em == null || !em.isOpen() || !em.isJoinedToTransaction()) {
      throw new NoActiveTransactionException(
          "the EntityManager is not joined to an active transaction, so the task would not commit"
              + " with your data; enqueue inside @Transactional (or between"
              + " em.getTransaction().begin() and commit())");
    }
    return work.apply(new EntityManagerTx(em));
  }

  /** The writes of one call through the transaction's entity manager. */
  private record EntityManagerTx(EntityManager em) implements Tx {
    @Override
    public void insert(List<OutboxRow> rows) {
      if (rows.size() > 1 && HIBERNATE && HibernateBatch.insert(em, rows)) {
        return;
      }
      for (OutboxRow row : rows) {
        em.persist(OutboxEntry.of(row));
      }
    }

    @Override
    public List<UniqueWindows.Outcome> claim(List<UniqueWindows.Claim> claims) {
      List<UniqueWindows.Outcome> outcomes = HIBERNATE ? HibernateBatch.claim(em, claims) : null;
      if (outcomes == null) {
        throw new OutboxException(
            "unique windows through JPA need Hibernate ORM (the claim is SQL on the session's"
                + " connection); this EntityManager is "
                + em.getClass().getName()
                + ": use JdbcTaskOutbox on the transaction's connection instead");
      }
      return outcomes;
    }
  }

  private static boolean hibernatePresent() {
    try {
      Class.forName("org.hibernate.Session", false, JpaRowSink.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "jpa";
  }
}
