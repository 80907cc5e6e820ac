package io.tasklane.bench.internal;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * db-scheduler, the polling peer, in this JVM on the same MariaDB: lock-and-fetch polling, the
 * settings in {@link #SETTINGS}. Tasks are inserted with plain JDBC batches into {@code
 * scheduled_tasks} (the row db-scheduler's own {@code schedule} writes), {@code batch} per
 * transaction; the no-op handler records its start time by instance id.
 */
public final class Peer implements AutoCloseable {
  public static final int THREADS = 16;
  public static final Duration POLLING_INTERVAL = Duration.ofMillis(100);
  public static final String SETTINGS =
      "db-scheduler 15.1.1, pollUsingLockAndFetch(0.5, 1.0) (SELECT … FOR UPDATE SKIP LOCKED; db-scheduler's"
          + " MariaDB customization with lock-and-fetch switched on and LIMIT before FOR UPDATE, MariaDB ≥ 10.6 has SKIP LOCKED), threads "
          + THREADS
          + ", pollingInterval "
          + POLLING_INTERVAL.toMillis()
          + " ms, Hikari pool "
          + (THREADS + 4)
          + ", heartbeat default (5 min), one-time task, rows inserted in transactions of 100";
  static final String TASK = "noop";
  private static final String DDL =
      """
      CREATE TABLE IF NOT EXISTS scheduled_tasks (
        task_name VARCHAR(100) NOT NULL, task_instance VARCHAR(100) NOT NULL, task_data BLOB,
        execution_time TIMESTAMP(6) NOT NULL, picked BOOLEAN NOT NULL, picked_by VARCHAR(50),
        last_success TIMESTAMP(6) NULL, last_failure TIMESTAMP(6) NULL, consecutive_failures INT,
        last_heartbeat TIMESTAMP(6) NULL, version BIGINT NOT NULL, priority SMALLINT,
        PRIMARY KEY (task_name, task_instance), INDEX execution_time_idx (execution_time),
        INDEX last_heartbeat_idx (last_heartbeat), INDEX priority_execution_time_idx (priority DESC, execution_time ASC))""";

  private final HikariDataSource ds;
  private final Scheduler scheduler;
  private final Map<String, Long> starts = new ConcurrentHashMap<>();
  private final ConcurrentSkipListMap<Long, LongAdder> perSecond = new ConcurrentSkipListMap<>();
  private final AtomicLong seq = new AtomicLong();

  public Peer(String url, String user, String password) throws SQLException {
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(url);
    hc.setUsername(user);
    hc.setPassword(password);
    hc.setMaximumPoolSize(THREADS + 4);
    this.ds = new HikariDataSource(hc);
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(DDL);
    }
    OneTimeTask<Void> task =
        Tasks.oneTime(TASK)
            .execute(
                (inst, ctx) -> {
                  long now = System.currentTimeMillis();
                  starts.put(inst.getId(), now);
                  perSecond.computeIfAbsent(now / 1000, k -> new LongAdder()).increment();
                });
    this.scheduler =
        Scheduler.create(ds, task)
            .threads(THREADS)
            .pollingInterval(POLLING_INTERVAL)
            .pollUsingLockAndFetch(0.5, 1.0)
            .jdbcCustomization(new MariaDbLockAndFetch())
            .build();
    scheduler.start();
  }

  /** Handler start times by instance id (the id encodes the due time: {@code <seq>-<dueMs>}). */
  public Map<String, Long> starts() {
    return starts;
  }

  public ConcurrentSkipListMap<Long, LongAdder> perSecond() {
    return perSecond;
  }

  /** Inserts {@code n} executions due at {@code dueAt.apply(i)}, {@code batch} per transaction. */
  public void insert(long n, int batch, int threads, LongFunction<Instant> dueAt)
      throws InterruptedException {
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long from = n * t / threads;
      long to = n * (t + 1) / threads;
      Thread th =
          new Thread(
              () -> {
                try {
                  insertRange(from, to, batch, dueAt);
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "peer-insert-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException(
          "db-scheduler insert failed: " + errors.get(0), errors.get(0));
    }
  }

  private void insertRange(long from, long to, int batch, LongFunction<Instant> dueAt)
      throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO scheduled_tasks (task_name, task_instance, task_data, execution_time, picked, version) VALUES (?,?,NULL,?,FALSE,1)")) {
      c.setAutoCommit(false);
      for (long i = from; i < to; i++) {
        Instant due = dueAt.apply(i);
        ps.setString(1, TASK);
        ps.setString(2, seq.incrementAndGet() + "-" + due.toEpochMilli());
        ps.setTimestamp(3, Timestamp.from(due));
        ps.addBatch();
        if ((i - from) % batch == batch - 1 || i == to - 1) {
          ps.executeBatch();
          c.commit();
        }
      }
    }
  }

  /** Executions of the no-op task still in the table (picked or not). */
  public long remaining(long dueBeforeMs) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM scheduled_tasks WHERE task_name=? AND execution_time < ?")) {
      ps.setString(1, TASK);
      ps.setTimestamp(2, new Timestamp(dueBeforeMs));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  public void clear() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM scheduled_tasks");
    }
    starts.clear();
    perSecond.clear();
  }

  /**
   * db-scheduler 15.1.1 declares lock-and-fetch unsupported on MariaDB although it builds the query
   * ({@code … LIMIT n FOR UPDATE SKIP LOCKED}) that MariaDB 10.6+ runs; this switches it on.
   */
  static final class MariaDbLockAndFetch
      extends com.github.kagkarlsson.scheduler.jdbc.MariaDBJdbcCustomization {
    MariaDbLockAndFetch() {
      super(false);
    }

    @Override
    public boolean supportsGenericLockAndFetch() {
      return true;
    }

    /** db-scheduler puts FOR UPDATE before LIMIT, which MariaDB refuses; LIMIT comes first here. */
    @Override
    public String createGenericSelectForUpdateQuery(
        String table, int limit, String requiredAndCondition, boolean byPriority) {
      return "SELECT * FROM "
          + table
          + " WHERE picked = ? AND execution_time <= ? "
          + requiredAndCondition
          + (byPriority
              ? " ORDER BY priority DESC, execution_time ASC"
              : " ORDER BY execution_time ASC")
          + " LIMIT "
          + limit
          + " FOR UPDATE SKIP LOCKED";
    }
  }

  @Override
  public void close() {
    scheduler.stop();
    ds.close();
  }
}
