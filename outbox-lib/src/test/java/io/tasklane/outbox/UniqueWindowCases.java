package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.UniqueUntil;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Unique windows against a real database, through the JDBC outbox: the same cases on MariaDB
 * ({@link UniqueWindowTest}) and PostgreSQL ({@link PostgresUniqueWindowTest}).
 */
abstract class UniqueWindowCases {
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  static final Duration HOUR = Duration.ofHours(1);

  final MutableClock clock = new MutableClock(T0);
  final ExecutorService threads = Executors.newCachedThreadPool();

  abstract OutboxDb db();

  @BeforeEach
  void empty() throws SQLException {
    db().truncate();
    try (Connection c = db().connect()) {
      c.createStatement().execute("DELETE FROM tasklane_unique");
    }
  }

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  static TaskRequest reminder(String order) {
    return TaskRequest.to("order.remind").payload(Map.of("order", order)).key(order).unique(HOUR);
  }

  JdbcTaskOutbox outbox(Connection c) {
    return TaskOutbox.builder().clock(clock).jdbc(c);
  }

  /** Enqueues {@code request} in a transaction of its own and commits it. */
  EnqueueResult commit(TaskRequest request) throws SQLException {
    try (Connection c = db().begin()) {
      EnqueueResult r = outbox(c).enqueueWithResult(request);
      c.commit();
      return r;
    }
  }

  List<Map<String, Object>> windows() {
    return db().query("SELECT handler, unique_key, task_id, expires_at FROM tasklane_unique");
  }

  @Test
  void aSecondEnqueueWithinTheWindowReturnsTheFirstIdAndWritesNoRow() throws Exception {
    EnqueueResult first = commit(reminder("order-42"));
    clock.advance(Duration.ofMinutes(59));
    EnqueueResult second = commit(reminder("order-42").payload("another payload"));
    String plain;
    try (Connection c = db().begin()) {
      plain = outbox(c).enqueue(reminder("order-42"));
      c.commit();
    }

    assertThat(first.duplicate()).isFalse();
    assertThat(first.uniqueUntil()).isEqualTo(T0.plus(HOUR));
    assertThat(TaskIds.timestampOf(first.taskId())).as("a UUIDv7").isEqualTo(T0.toEpochMilli());
    assertThat(first.taskId()).isNotEqualTo(TaskIds.forKey("order.remind", "order-42"));
    assertThat(second.duplicate()).isTrue();
    assertThat(second.taskId()).isEqualTo(first.taskId()).isEqualTo(plain);
    assertThat(second.uniqueUntil()).isEqualTo(T0.plus(HOUR));
    assertThat(db().rows())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.get("task_id")).isEqualTo(first.taskId());
              assertThat(r.get("task_key")).isEqualTo("order-42");
            });
    assertThat(windows())
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.get("handler")).isEqualTo("order.remind");
              assertThat(w.get("unique_key")).isEqualTo("order-42");
              assertThat(w.get("task_id")).isEqualTo(first.taskId());
              assertThat(((Number) w.get("expires_at")).longValue())
                  .isEqualTo(T0.plus(HOUR).toEpochMilli());
            });
  }

  @Test
  void afterTheWindowANewTaskIsCreatedAndItsWindowStarts() throws Exception {
    EnqueueResult first = commit(reminder("order-42"));
    clock.advance(HOUR);
    EnqueueResult second = commit(reminder("order-42"));
    clock.advance(Duration.ofMinutes(30));
    EnqueueResult third = commit(reminder("order-42"));

    assertThat(second.duplicate()).isFalse();
    assertThat(second.taskId()).isNotEqualTo(first.taskId());
    assertThat(second.uniqueUntil()).isEqualTo(T0.plus(HOUR).plus(HOUR));
    assertThat(third.duplicate()).isTrue();
    assertThat(third.taskId()).isEqualTo(second.taskId());
    assertThat(db().rows())
        .extracting(r -> r.get("task_id"))
        .containsExactly(first.taskId(), second.taskId());
    assertThat(windows())
        .singleElement()
        .satisfies(w -> assertThat(w.get("task_id")).isEqualTo(second.taskId()));
  }

  @Test
  void aWindowThatEndsWithItsTaskFreesTheKeyOnceTheRelayDeletedItsRow() throws Exception {
    EnqueueResult first = commit(reminder("order-42").unique(HOUR, UniqueUntil.END));
    assertThat(db().rows())
        .singleElement()
        .satisfies(
            r -> assertThat(String.valueOf(r.get("options"))).contains("\"uniqueUntil\":\"end\""));
    clock.advance(Duration.ofMinutes(5));
    assertThat(commit(reminder("order-42").unique(HOUR, UniqueUntil.END)).taskId())
        .as("while the task has not ended")
        .isEqualTo(first.taskId());
    try (Connection c = db().connect()) { // what the relay does when the task ended
      c.createStatement()
          .execute(
              "DELETE FROM tasklane_unique WHERE key_id = '"
                  + TaskIds.forKey("order.remind", "order-42")
                  + "' AND task_id = '"
                  + first.taskId()
                  + "'");
    }
    EnqueueResult second = commit(reminder("order-42").unique(HOUR, UniqueUntil.END));
    assertThat(second.duplicate()).isFalse();
    assertThat(second.taskId()).isNotEqualTo(first.taskId());
    assertThat(second.uniqueUntil()).isEqualTo(T0.plus(Duration.ofMinutes(5)).plus(HOUR));
  }

  @Test
  void aWindowThatEndsEarlyNeedsALength() throws Exception {
    assertThatThrownBy(() -> reminder("order-1").unique(null, UniqueUntil.SUCCESS))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("unique:");
    TaskRequest cleared = reminder("order-1").unique(HOUR, UniqueUntil.END).unique(null);
    assertThat(cleared.options().uniqueUntil()).isNull();
    TaskRequest bare =
        TaskRequest.to("order.remind")
            .key("order-1")
            .options(TaskOptions.builder().uniqueUntil(UniqueUntil.END).build());
    try (Connection c = db().begin()) {
      assertThatThrownBy(() -> outbox(c).enqueue(bare))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageStartingWith("uniqueUntil: needs a unique window");
      c.rollback();
    }
  }

  @Test
  void keysAndHandlersHaveWindowsOfTheirOwn() throws Exception {
    String a = commit(reminder("order-1")).taskId();
    String b = commit(reminder("ORDER-1")).taskId();
    String c = commit(reminder("order-1 ")).taskId();
    String d = commit(reminder("order-1").payload(null).key("order-1")).taskId();
    String e = commit(TaskRequest.to("order.cancel").key("order-1").unique(HOUR)).taskId();

    assertThat(List.of(a, b, c, e)).doesNotHaveDuplicates();
    assertThat(d).isEqualTo(a);
    assertThat(db().count()).isEqualTo(4);
  }

  @Test
  void enqueueAllWritesOnlyTheTasksWhoseWindowIsFree() throws Exception {
    String held = commit(reminder("order-1")).taskId();
    List<String> ids;
    try (Connection c = db().begin()) {
      ids =
          TaskOutbox.builder()
              .clock(clock)
              .config(OutboxConfig.DEFAULT.withBatchRows(10))
              .jdbc(c)
              .enqueueAll(
                  List.of(
                      reminder("order-2"),
                      reminder("order-1"),
                      TaskRequest.to("order.ship").payload(1),
                      reminder("order-2"),
                      reminder("order-3")));
      c.commit();
    }
    assertThat(ids.get(1)).isEqualTo(held);
    assertThat(ids.get(3)).as("the same key twice in one call").isEqualTo(ids.get(0));
    assertThat(List.of(held, ids.get(0), ids.get(2), ids.get(4))).doesNotHaveDuplicates();
    assertThat(db().rows())
        .as("the first task, then one batch row of the three written")
        .hasSize(2)
        .last()
        .satisfies(r -> assertThat(r.get("kind")).isEqualTo("BATCH"));
    assertThat(windows()).hasSize(3);
  }

  @Test
  void aRolledBackEnqueueDoesNotHoldTheKey() throws Exception {
    String rolledBack;
    try (Connection c = db().begin()) {
      rolledBack = outbox(c).enqueue(reminder("order-42"));
      c.rollback();
    }
    EnqueueResult next = commit(reminder("order-42"));

    assertThat(next.duplicate()).isFalse();
    assertThat(next.taskId()).isNotEqualTo(rolledBack);
    assertThat(db().rows()).extracting(r -> r.get("task_id")).containsExactly(next.taskId());
  }

  @Test
  void aConcurrentEnqueueWaitsForTheFirstTransactionAndFindsItsTask() throws Exception {
    try (Connection first = db().begin()) {
      EnqueueResult mine = outbox(first).enqueueWithResult(reminder("order-42"));
      Future<EnqueueResult> other = threads.submit(() -> commit(reminder("order-42")));
      assertBlocked(other);
      first.commit();
      EnqueueResult theirs = other.get(30, TimeUnit.SECONDS);
      assertThat(theirs.duplicate()).isTrue();
      assertThat(theirs.taskId()).isEqualTo(mine.taskId());
    }
    assertThat(db().count()).isEqualTo(1);
  }

  @Test
  void aConcurrentEnqueueWaitingOnARolledBackTransactionCreatesTheTask() throws Exception {
    String rolledBack;
    Future<EnqueueResult> other;
    try (Connection first = db().begin()) {
      rolledBack = outbox(first).enqueue(reminder("order-42"));
      other = threads.submit(() -> commit(reminder("order-42")));
      assertBlocked(other);
      first.rollback();
    }
    EnqueueResult theirs = other.get(30, TimeUnit.SECONDS);
    assertThat(theirs.duplicate()).isFalse();
    assertThat(theirs.taskId()).isNotEqualTo(rolledBack);
    assertThat(db().rows()).extracting(r -> r.get("task_id")).containsExactly(theirs.taskId());
  }

  @Test
  void racingTransactionsOfOneKeyCreateExactlyOneTask() throws Exception {
    int n = 8;
    CyclicBarrier start = new CyclicBarrier(n);
    List<CompletableFuture<EnqueueResult>> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      results.add(
          CompletableFuture.supplyAsync(
              () -> {
                try (Connection c = db().begin()) {
                  start.await(30, TimeUnit.SECONDS);
                  EnqueueResult r = outbox(c).enqueueWithResult(reminder("order-42"));
                  c.commit();
                  return r;
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              threads));
    }
    List<EnqueueResult> all = new ArrayList<>();
    for (CompletableFuture<EnqueueResult> f : results) {
      all.add(f.get(60, TimeUnit.SECONDS));
    }
    assertThat(all).filteredOn(r -> !r.duplicate()).hasSize(1);
    assertThat(all).extracting(EnqueueResult::taskId).containsOnly(all.get(0).taskId());
    assertThat(db().rows()).extracting(r -> r.get("task_id")).containsExactly(all.get(0).taskId());
  }

  /** {@code f} has not finished within half a second: it waits on a row lock. */
  static void assertBlocked(Future<?> f) throws Exception {
    try {
      f.get(500, TimeUnit.MILLISECONDS);
      throw new AssertionError("the second enqueue did not wait for the first transaction");
    } catch (TimeoutException expected) {
      // waiting on the first transaction's row lock
    }
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
