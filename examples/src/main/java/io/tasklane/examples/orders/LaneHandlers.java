package io.tasklane.examples.orders;

import io.micronaut.context.BeanContext;
import io.micronaut.jdbc.DataSourceResolver;
import io.tasklane.worker.AlreadyProcessedException;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The events of an order, applied in an ordered lane: tasks enqueued with {@code
 * orderingKey(event.lane())}, each carrying its place in the lane ({@code seq}). Besides its effect
 * row, every run of the handler leaves a row in {@code demo_lane_runs}: written with its start
 * (worker clock, microseconds, and the worker's pid) in a short transaction of its own before any
 * work, so that a run cut by kill -9 still shows; its end is written in the effect's transaction
 * (outcome {@code effect}), or, when the attempt throws, in a short transaction of its own (outcome
 * {@code failed}, or {@code already} when another delivery had committed the task). A checker can
 * then tell whether two tasks of one lane ever ran at once, or out of order.
 */
@Singleton
public class LaneHandlers {
  public static final String EVENT = "order.event";

  private final DataSource dataSource;

  public LaneHandlers(DataSource dataSource, BeanContext beans) {
    this.dataSource = pool(dataSource, beans);
  }

  /**
   * Fails its first {@code failures} attempts (the lane stays held through the retries), then
   * writes its effect.
   */
  @TaskHandler(EVENT)
  public void apply(LaneEvent event, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    long startedUs = nowMicros();
    String run = UUID.randomUUID().toString();
    start(run, ctx, event, startedUs);
    try {
      if (ctx.attempt() <= event.failures()) {
        throw new IllegalStateException(
            "ledger busy for " + event.lane() + " (attempt " + ctx.attempt() + ")");
      }
      ctx.inTransaction(
          c -> {
            Effects.record(c, ctx, EVENT, event.orderId(), started);
            end(c, run, "effect");
            return null;
          });
    } catch (Exception e) {
      String outcome = e instanceof AlreadyProcessedException ? "already" : "failed";
      try (Connection c = dataSource.getConnection()) {
        c.setAutoCommit(true);
        end(c, run, outcome);
      } catch (SQLException ignored) {
        // the database is away: the run keeps no end (the checker then treats it as open)
      }
      throw e;
    }
  }

  private void start(String run, TaskContext ctx, LaneEvent event, long startedUs)
      throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO demo_lane_runs (run_id, task_id, lane, seq, attempt, pid, started_us)"
                  + " VALUES (?,?,?,?,?,?,?)")) {
        ps.setString(1, run);
        ps.setString(2, ctx.taskId());
        ps.setString(3, event.lane());
        ps.setLong(4, event.seq());
        ps.setInt(5, ctx.attempt());
        ps.setLong(6, ProcessHandle.current().pid());
        ps.setLong(7, startedUs);
        ps.executeUpdate();
      }
    }
  }

  private static void end(Connection c, String run, String outcome) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE demo_lane_runs SET ended_us = ?, outcome = ? WHERE run_id = ?")) {
      ps.setLong(1, nowMicros());
      ps.setString(2, outcome);
      ps.setString(3, run);
      ps.executeUpdate();
    }
  }

  private static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  /**
   * The pool behind a transaction-aware proxy: with micronaut-data the DataSource bean only hands
   * out the connection of the current Micronaut transaction, and these writes run outside one.
   */
  private static DataSource pool(DataSource dataSource, BeanContext beans) {
    return beans
        .findBean(DataSourceResolver.class)
        .map(r -> r.resolve(dataSource))
        .orElse(dataSource);
  }

  /**
   * The payload of {@link #apply}: effect {@code ref} {@code orderId}, the lane (its ordering key),
   * its place in the lane, and how many first attempts fail.
   */
  public record LaneEvent(long orderId, String lane, long seq, int failures) {}
}
