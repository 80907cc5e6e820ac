package io.tasklane.bench.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.sql.mariadb.MariaDbStorageProvider;

/**
 * JobRunr OSS, the second polling peer, in this JVM on the same MariaDB server as db-scheduler but
 * in a database of its own ({@code <run database>_jobrunr}: JobRunr's own tables, made by its own
 * migrations), with one {@link org.jobrunr.server.BackgroundJobServer} of {@code workers} workers.
 * Jobs are enqueued through {@link JobScheduler#enqueue(java.util.stream.Stream,
 * org.jobrunr.jobs.lambdas.IocJobLambdaFromStream)} (JobRunr saves a stream in batches), from
 * {@link #INSERT_THREADS} threads like db-scheduler's rows; the no-op job records its start by job
 * parameter.
 */
public final class JobRunrPeer implements AutoCloseable {
  public static final String VERSION = "8.1.0";

  /** The smallest poll interval JobRunr accepts on a SQL storage provider (its default is 15 s). */
  public static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

  /** The worker counts of the sweep; the best one is reported. */
  public static final int[] WORKERS = {16, 64, 128};

  static final int INSERT_THREADS = 4;

  /**
   * Database connections: up to 32 for the workers' state updates, 8 for the server's own queries
   * (one per worker made no difference on 2 cores, docs/performance.md).
   */
  static int poolSize(int workers) {
    return Math.min(workers, 32) + 8;
  }

  public static String settings(int workers) {
    return "JobRunr OSS "
        + VERSION
        + ", MariaDbStorageProvider (its own tables, its own database), one BackgroundJobServer, workers "
        + workers
        + " (best of a sweep over "
        + java.util.Arrays.toString(WORKERS)
        + "), pollInterval "
        + POLL_INTERVAL.toSeconds()
        + " s (JobRunr's minimum on SQL), Hikari pool "
        + poolSize(workers)
        + ", Jackson JSON mapper, jobs enqueued as streams from "
        + INSERT_THREADS
        + " threads";
  }

  /** The job: records that item {@code i} started. Activated through {@link JobActivator}. */
  public static final class Noop {
    final Set<Long> starts = ConcurrentHashMap.newKeySet();
    final ConcurrentSkipListMap<Long, LongAdder> perSecond = new ConcurrentSkipListMap<>();

    public void run(Long i) {
      long now = System.currentTimeMillis();
      starts.add(i);
      perSecond.computeIfAbsent(now / 1000, k -> new LongAdder()).increment();
    }
  }

  private final HikariDataSource ds;
  private final Noop noop = new Noop();
  private final JobScheduler scheduler;

  /**
   * Starts JobRunr with {@code workers} workers on database {@code url} (JobRunr creates its tables
   * there on first use) after emptying its job table.
   */
  public JobRunrPeer(String url, String user, String password, int workers) throws SQLException {
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(url);
    hc.setUsername(user);
    hc.setPassword(password);
    hc.setMaximumPoolSize(poolSize(workers));
    hc.setPoolName("jobrunr");
    this.ds = new HikariDataSource(hc);
    MariaDbStorageProvider storage = new MariaDbStorageProvider(ds);
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM jobrunr_jobs");
    }
    JobActivator activator =
        new JobActivator() {
          @Override
          public <T> T activateJob(Class<T> type) {
            return type.cast(noop);
          }
        };
    this.scheduler =
        JobRunr.configure()
            .useJobActivator(activator)
            .useStorageProvider(storage)
            .useBackgroundJobServer(
                BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
                    .andWorkerCount(workers)
                    .andPollInterval(POLL_INTERVAL))
            .initialize()
            .getJobScheduler();
  }

  public int started() {
    return noop.starts.size();
  }

  public ConcurrentSkipListMap<Long, LongAdder> perSecond() {
    return noop.perSecond;
  }

  /** Enqueues jobs {@code 0..n-1} from {@link #INSERT_THREADS} threads. */
  public void enqueue(long n) throws InterruptedException {
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < INSERT_THREADS; t++) {
      long from = n * t / INSERT_THREADS;
      long to = n * (t + 1) / INSERT_THREADS;
      Thread th =
          new Thread(
              () -> {
                try {
                  scheduler.<Noop, Long>enqueue(
                      LongStream.range(from, to).boxed(), (job, i) -> job.run(i));
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "jobrunr-enqueue-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("JobRunr enqueue failed: " + errors.get(0), errors.get(0));
    }
  }

  /** Jobs in JobRunr's table not yet SUCCEEDED (enqueued, processing or failed). */
  public long unfinished() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT COUNT(*) FROM jobrunr_jobs WHERE state <> 'SUCCEEDED'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public void close() {
    try {
      JobRunr.destroy();
    } finally {
      ds.close();
    }
  }
}
