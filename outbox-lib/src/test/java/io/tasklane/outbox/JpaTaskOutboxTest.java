package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskKey;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The entity and {@link TaskOutbox#jpa} with plain Hibernate (resource-local transactions). */
@TasklaneStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JpaTaskOutboxTest {
  final TestDb db;
  final SessionFactory sessions;

  JpaTaskOutboxTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_jpa");
    sessions =
        new Configuration()
            .addAnnotatedClass(OutboxEntry.class)
            .setProperty("hibernate.connection.url", db.url())
            .setProperty("hibernate.connection.username", stack.username())
            .setProperty("hibernate.connection.password", stack.password())
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
      assertThat(e.getKind()).isEqualTo("TASK");
      assertThat(e.getHandler()).isEqualTo("mail.send");
      assertThat(e.getTaskKey()).isEqualTo("m-1");
      assertThat(e.getRoutingKey()).isEqualTo(id);
      assertThat(e.getPayload()).isEqualTo("{\"to\":\"ada\"}");
      assertThat(e.getMaxAttempts()).isEqualTo(OutboxConfig.DEFAULT_MAX_ATTEMPTS);
      assertThat(e.getDueAt()).isEqualTo(e.getCreatedAt());
    }
  }

  @Test
  void rollbackLeavesNoRow() {
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      TaskOutbox outbox = TaskOutbox.jpa(em);
      outbox.enqueue(TaskRequest.to("mail.send"));
      outbox.enqueueAll(List.of(TaskRequest.to("mail.send"), TaskRequest.to("mail.send")));
      outbox.cancel(TaskKey.of("mail.send", "m-1"));
      em.getTransaction().rollback();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void entityManagerWithoutTransactionIsRefused() {
    try (EntityManager em = sessions.createEntityManager()) {
      assertThatThrownBy(() -> TaskOutbox.jpa(em).enqueue(TaskRequest.to("mail.send")))
          .isInstanceOf(NoActiveTransactionException.class)
          .hasMessageContaining("not joined to an active transaction");
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
      String cancelled = TaskOutbox.jpa(em).cancel(ids.get(0));
      em.getTransaction().commit();
      assertThat(cancelled).isEqualTo(ids.get(0));
    }
    assertThat(db.count()).isEqualTo(501);
    assertThat(db.query("SELECT COUNT(*) AS n FROM tasklane_outbox WHERE kind = 'CANCEL'"))
        .containsExactly(Map.of("n", 1L));
  }

  @Test
  void aUniqueWindowIsClaimedOnTheSessionsConnectionInTheTransaction() {
    try (var c = db.connect()) {
      c.createStatement().execute("DELETE FROM tasklane_unique");
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    TaskRequest remind = TaskRequest.to("mail.remind").key("ada").unique(Duration.ofHours(1));
    EnqueueResult first;
    EnqueueResult again;
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      first = TaskOutbox.jpa(em).enqueueWithResult(remind);
      again = TaskOutbox.jpa(em).enqueueWithResult(remind);
      em.getTransaction().commit();
    }
    EnqueueResult later;
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      later = TaskOutbox.jpa(em).enqueueWithResult(remind.payload("other"));
      TaskOutbox.jpa(em).enqueue(remind.key("bob"));
      em.getTransaction().rollback();
    }
    EnqueueResult bob;
    try (EntityManager em = sessions.createEntityManager()) {
      em.getTransaction().begin();
      bob = TaskOutbox.jpa(em).enqueueWithResult(remind.key("bob"));
      em.getTransaction().commit();
    }
    assertThat(first.duplicate()).isFalse();
    assertThat(again.duplicate()).as("the same transaction sees its own window").isTrue();
    assertThat(later.duplicate()).isTrue();
    assertThat(again.taskId()).isEqualTo(first.taskId()).isEqualTo(later.taskId());
    assertThat(bob.duplicate()).as("the rolled-back window of bob is free").isFalse();
    assertThat(db.rows())
        .extracting(r -> r.get("task_id"))
        .containsExactly(first.taskId(), bob.taskId());
  }
}
