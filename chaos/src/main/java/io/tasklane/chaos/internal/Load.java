package io.tasklane.chaos.internal;

import io.tasklane.core.TaskIds;
import io.tasklane.examples.orders.LaneHandlers.LaneEvent;
import io.tasklane.harness.Database;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.OutboxConfig;
import io.tasklane.outbox.TaskBatch;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Offers the {@link Mix}, a third of it replaced by {@link OrderedLanes}' tasks, at a steady rate:
 * every 20 ms one transaction of {@code rate / 50} tasks through {@link JdbcTaskOutbox}'s {@code
 * enqueueAll} (one JDBC batch) on its own thread and connection; every other transaction writes
 * batched outbox rows ({@code batch-rows} {@value #BATCH_ROWS}), so that the relay's fan-out of
 * batch rows goes through every kill too. Once a second the transaction also writes a task batch
 * ({@link Mix#batchMembers}) sealed with an onComplete callback ({@link BatchCheck}). A batch whose
 * commit throws (e.g. MariaDB down) goes to the ledger as ambiguous, and the connection is
 * reopened.
 */
public final class Load implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Load.class);
  private static final long TICK_MS = 20;
  static final int BATCH_ROWS = 10;
  private static final OutboxConfig BATCHED = OutboxConfig.DEFAULT.withBatchRows(BATCH_ROWS);
  private final Database db;
  private final Ledger ledger;

  /** Every this many ticks (one second), the transaction also writes a whole batch. */
  static final int BATCH_EVERY_TICKS = 50;

  private final AtomicLong nextBatch = new AtomicLong(1);
  private final double perTick;
  private final SplittableRandom random;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos-load"));
  private final AtomicLong failedBatches = new AtomicLong();
  private final AtomicLong nextRef = new AtomicLong(1);
  private final OrderedLanes lanes = new OrderedLanes();
  private double carry;
  private long ticks;
  private Connection connection;

  public Load(Database db, Ledger ledger, int rate, long seed) {
    this.db = db;
    this.ledger = ledger;
    this.perTick = rate * TICK_MS / 1000.0;
    this.random = new SplittableRandom(seed);
  }

  public void start() {
    timer.scheduleAtFixedRate(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    carry += perTick;
    int n = (int) carry;
    carry -= n;
    if (n == 0) {
      return;
    }
    List<String> ids = new ArrayList<>(n);
    try {
      if (connection == null) {
        connection = db.connect();
        connection.setAutoCommit(false);
      }
      List<TaskRequest> batch = new ArrayList<>(n);
      List<LaneEvent> events = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        long ref = nextRef.getAndIncrement();
        if (OrderedLanes.chosen(random)) {
          LaneEvent event = lanes.next(random, ref);
          events.add(event);
          batch.add(OrderedLanes.request(event));
        } else {
          events.add(null);
          batch.add(Mix.next(random, ref));
        }
      }
      JdbcTaskOutbox outbox =
          ticks++ % 2 == 0
              ? JdbcTaskOutbox.of(connection)
              : TaskOutbox.builder().config(BATCHED).jdbc(connection);
      ids.addAll(outbox.enqueueAll(batch));
      List<LaneCheck.LaneTask> ordered = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        LaneEvent e = events.get(i);
        if (e != null) {
          ordered.add(new LaneCheck.LaneTask(ids.get(i), e.lane(), e.seq()));
        }
      }
      ledger.ordered(ordered);
      Map<String, String> unique = new HashMap<>();
      for (int i = 0; i < ids.size(); i++) {
        if (batch.get(i).unique() != null) {
          unique.put(ids.get(i), batch.get(i).key());
        }
      }
      ledger.unique(unique);
      List<String> limited = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        if (Mix.LIMIT.equals(batch.get(i).options().rateLimit())) {
          limited.add(ids.get(i));
        }
      }
      ledger.limited(limited);
      String batchId = null;
      List<String> members = List.of();
      if (ticks % BATCH_EVERY_TICKS == BATCH_EVERY_TICKS / 2) {
        long seq = nextBatch.getAndIncrement();
        batchId = "chaos-b-" + seq;
        TaskBatch b = outbox.batch(batchId);
        members = b.enqueueAll(Mix.batchMembers(random, nextRef.getAndAdd(Mix.BATCH_MEMBERS)));
        b.seal(null, Mix.batchReport(seq));
        ids.addAll(members);
        ids.add(TaskIds.forBatchCallback(batchId, "complete"));
      }
      connection.commit();
      ledger.committed(ids);
      if (batchId != null) {
        ledger.batch(batchId, members);
      }
    } catch (Throwable t) {
      ledger.ambiguous(ids);
      if (failedBatches.incrementAndGet() % 50 == 1) {
        LOG.warn(
            "load: a batch of {} failed ({} so far): {}", n, failedBatches.get(), t.toString());
      }
      closeConnection();
    }
  }

  /** Batches whose transaction threw. */
  public long failedBatches() {
    return failedBatches.get();
  }

  private void closeConnection() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // already broken
      }
      connection = null;
    }
  }

  /** Stops offering and waits for the running batch. */
  @Override
  public void close() {
    timer.shutdown();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeConnection();
  }
}
