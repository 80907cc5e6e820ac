package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.util.List;
import org.hibernate.Session;

/** The only class touching Hibernate: a JDBC batch on the session's own connection. */
final class HibernateBatch {
  private HibernateBatch() {}

  /** Inserts {@code rows}; false when {@code em} is not a Hibernate session (nothing written). */
  static boolean insert(EntityManager em, List<OutboxRow> rows) {
    Session session;
    try {
      session = em.unwrap(Session.class);
    } catch (PersistenceException | IllegalStateException e) {
      return false;
    }
    session.doWork(connection -> OutboxInserts.insert(connection, rows));
    return true;
  }
}
