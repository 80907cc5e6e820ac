package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.util.List;
import org.hibernate.Session;

/**
 * The only class touching Hibernate: a JDBC batch, and the claims of unique windows, on the
 * session's own connection (the transaction's).
 */
final class HibernateBatch {
  private HibernateBatch() {}

  /** Inserts {@code rows}; false when {@code em} is not a Hibernate session (nothing written). */
  static boolean insert(EntityManager em, List<OutboxRow> rows) {
    Session session = session(em);
    if (session == null) {
      return false;
    }
    session.doWork(connection -> OutboxInserts.insert(connection, rows));
    return true;
  }

  /** Claims {@code claims} ({@link UniqueWindows#claim}); null when {@code em} is not Hibernate. */
  static List<UniqueWindows.Outcome> claim(EntityManager em, List<UniqueWindows.Claim> claims) {
    Session session = session(em);
    return session == null
        ? null
        : session.doReturningWork(connection -> UniqueWindows.claim(connection, claims));
  }

  private static Session session(EntityManager em) {
    try {
      return em.unwrap(Session.class);
    } catch (PersistenceException | IllegalStateException e) {
      return null;
    }
  }
}
