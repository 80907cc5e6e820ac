package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.TaskIds;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The JPA outbox with Hibernate on the real PostgreSQL ({@code hbm2ddl=validate}). */
@TasklaneStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresJpaOutboxTest {
  final PgDb db;
  final SessionFactory sessions;

  PostgresJpaOutboxTest(LocalStack stack) {
    db = PgDb.create(stack, "outbox_pg_jpa");
    sessions =
        new Configuration()
            .addAnnotatedClass(OutboxEntry.class)
            .setProperty("hibernate.connection.url", db.url())
            .setProperty("hibernate.connection.username", db.pg().username())
            .setProperty("hibernate.connection.password", db.pg().password())
            .setProperty("hibernate.hbm2ddl.auto", "validate")
            .buildSessionFactory();
  }

  @AfterAll
  void close() {
    sessions.close();
  }

  @BeforeEach
  void empty() {
    db.truncate();
  }

  @Test
  void entityIsPersistedInTheTransactionAndReadBack() {
    String id;
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      id =
          TaskOutbox.jpa(em)
              .enqueue(TaskRequest.to("mail.send").payload(Map.of("to", "ada")).key("m-1"));
      em.getTransaction().commit();
    }
    try (EntityManager em = sessions.createEntityManager()) {
      List<OutboxEntry> entries =
          em.createQuery("select e from TasklaneOutboxEntry e", OutboxEntry.class).getResultList();
      assertThat(entries).hasSize(1);
      OutboxEntry e = entries.get(0);
      assertThat(e.getId()).isPositive();
      assertThat(e.getTaskId()).isEqualTo(id).isEqualTo(TaskIds.forKey("mail.send", "m-1"));
      assertThat(e.getPayload()).isEqualTo("{\"to\":\"ada\"}");
      assertThat(e.getKind()).isEqualTo("TASK");
    }
  }

  @Test
  void rollbackLeavesNoRow() {
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      TaskOutbox outbox = TaskOutbox.jpa(em);
      outbox.enqueue(TaskRequest.to("mail.send"));
      outbox.enqueueAll(List.of(TaskRequest.to("mail.send"), TaskRequest.to("mail.send")));
      em.getTransaction().rollback();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void enqueueAllIsOneBatchOnTheSessionConnection() {
    List<TaskRequest> requests =
        IntStream.range(0, 500).mapToObj(i -> TaskRequest.to("bulk.jpa").payload(i)).toList();
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      List<String> ids = TaskOutbox.jpa(em).enqueueAll(requests);
      TaskOutbox.jpa(em).cancel(ids.get(0));
      em.getTransaction().commit();
    }
    assertThat(db.count()).isEqualTo(501);
    assertThat(db.query("SELECT COUNT(*) AS n FROM tasklane_outbox WHERE kind = 'CANCEL'"))
        .containsExactly(Map.of("n", 1L));
  }

  @Test
  void badInputAndMissingTransactionAreRefused() {
    try (EntityManager em = sessions.createEntityManager()) {
      assertThatThrownBy(() -> TaskOutbox.jpa(em).enqueue(TaskRequest.to("mail.send")))
          .isInstanceOf(NoActiveTransactionException.class);
      em.getTransaction().begin();
      assertThatThrownBy(
              () -> TaskOutbox.jpa(em).enqueue(TaskRequest.to("mail.send").maxAttempts(0)))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageContaining("maxAttempts");
      em.getTransaction().commit();
    }
    assertThat(db.count()).isZero();
  }
}
