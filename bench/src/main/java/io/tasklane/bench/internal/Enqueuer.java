package io.tasklane.bench.internal;

import io.tasklane.bench.NoopHandler;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.OutboxConfig;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * Enqueues tasks (no-op ones unless another handler is given) through {@link JdbcTaskOutbox} on
 * plain JDBC connections (auto-commit off), {@code batch} tasks per transaction, on {@code threads}
 * threads. Commit times are kept by task id when asked, for commit → handler start latencies.
 */
public final class Enqueuer {
  private final String url;
  private final String user;
  private final String password;
  private final OutboxConfig config;
  private final String handler;
  private final AtomicLong enqueued = new AtomicLong();
  private final Map<String, Long> commits = new ConcurrentHashMap<>();
  private final Map<String, Long> dues = new ConcurrentHashMap<>();

  public Enqueuer(String url, String user, String password) {
    this(url, user, password, 1);
  }

  /** An enqueuer writing up to {@code batchRows} tasks per outbox row ({@code enqueueAll}). */
  public Enqueuer(String url, String user, String password, int batchRows) {
    this(url, user, password, batchRows, NoopHandler.NAME);
  }

  /** An enqueuer of tasks for {@code handler}, one task per outbox row. */
  public Enqueuer(String url, String user, String password, String handler) {
    this(url, user, password, 1, handler);
  }

  private Enqueuer(String url, String user, String password, int batchRows, String handler) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.config = OutboxConfig.DEFAULT.withBatchRows(batchRows);
    this.handler = handler;
  }

  /** Due time (epoch ms) by task id of the kept tasks that had one. */
  public Map<String, Long> dues() {
    return dues;
  }

  /** Forgets the kept commit and due times. */
  public void clear() {
    commits.clear();
    dues.clear();
  }

  public long enqueued() {
    return enqueued.get();
  }

  /** Commit time (epoch ms) by task id of the calls that asked to keep them. */
  public Map<String, Long> commits() {
    return commits;
  }

  /**
   * Enqueues {@code n} tasks due at {@code dueAt.apply(i)} (null: now), {@code batch} per
   * transaction, split over {@code threads} threads; returns when all are committed.
   */
  public void run(int n, int batch, int threads, LongFunction<Instant> dueAt, boolean keepCommits)
      throws InterruptedException {
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int from = (int) ((long) n * t / threads);
      int to = (int) ((long) n * (t + 1) / threads);
      Thread th =
          new Thread(
              () -> {
                try {
                  range(from, to, batch, dueAt, keepCommits);
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "bench-enqueue-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("enqueue failed: " + errors.get(0), errors.get(0));
    }
  }

  private void range(int from, int to, int batch, LongFunction<Instant> dueAt, boolean keep)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      c.setAutoCommit(false);
      JdbcTaskOutbox outbox = TaskOutbox.builder().config(config).jdbc(c);
      for (int i = from; i < to; i += batch) {
        List<TaskRequest> reqs = new ArrayList<>(batch);
        for (int j = i; j < Math.min(to, i + batch); j++) {
          Instant due = dueAt == null ? null : dueAt.apply(j);
          TaskRequest r = TaskRequest.to(handler).maxAttempts(3);
          reqs.add(due == null ? r : r.at(due));
        }
        List<String> ids = outbox.enqueueAll(reqs);
        c.commit();
        long now = System.currentTimeMillis();
        if (keep) {
          for (int k = 0; k < ids.size(); k++) {
            commits.put(ids.get(k), now);
            if (reqs.get(k).dueAt() != null) {
              dues.put(ids.get(k), reqs.get(k).dueAt().toEpochMilli());
            }
          }
        }
        enqueued.addAndGet(ids.size());
      }
    }
  }

  /**
   * Enqueues the tasks {@code request.apply(i)} for i in [0, n), {@code batch} per transaction, on
   * {@code threads} threads: thread t takes the i with {@code i % threads == t}, in increasing
   * order, so that tasks whose i differ by a multiple of {@code threads} commit in the order of
   * their i. Keeps their commit times when asked; returns when all are committed.
   */
  public void strided(
      long n, int batch, int threads, LongFunction<TaskRequest> request, boolean keepCommits)
      throws InterruptedException {
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      Thread th =
          new Thread(
              () -> {
                try {
                  stride(first, threads, n, batch, request, keepCommits);
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "bench-enqueue-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("enqueue failed: " + errors.get(0), errors.get(0));
    }
  }

  private void stride(
      long first, int step, long n, int batch, LongFunction<TaskRequest> request, boolean keep)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      c.setAutoCommit(false);
      JdbcTaskOutbox outbox = TaskOutbox.builder().config(config).jdbc(c);
      List<TaskRequest> reqs = new ArrayList<>(batch);
      for (long i = first; i < n; i += step) {
        reqs.add(request.apply(i));
        if (reqs.size() == batch || i + step >= n) {
          List<String> ids = outbox.enqueueAll(reqs);
          c.commit();
          long now = System.currentTimeMillis();
          if (keep) {
            ids.forEach(id -> commits.put(id, now));
          }
          enqueued.addAndGet(ids.size());
          reqs = new ArrayList<>(batch);
        }
      }
    }
  }

  /**
   * As {@link #paced}, enqueuing {@code request.apply(i)} as the i-th task; keeps the commit times.
   */
  public void pacedRequests(int rate, int seconds, int threads, LongFunction<TaskRequest> request)
      throws InterruptedException {
    long start = System.nanoTime();
    long total = (long) rate * seconds;
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      Thread th =
          new Thread(
              () -> {
                try (Connection c = DriverManager.getConnection(url, user, password)) {
                  c.setAutoCommit(false);
                  JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
                  for (long i = first; i < total; i += threads) {
                    long wait = start + i * 1_000_000_000L / rate - System.nanoTime();
                    if (wait > 0) {
                      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    String id = outbox.enqueue(request.apply(i));
                    c.commit();
                    commits.put(id, System.currentTimeMillis());
                    enqueued.incrementAndGet();
                  }
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "bench-paced-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("enqueue failed: " + errors.get(0), errors.get(0));
    }
  }

  /**
   * Enqueues one task per transaction at {@code rate} per second in all for {@code seconds}, over
   * {@code threads} connections (a thread that falls behind its schedule commits as fast as it
   * can).
   */
  public void paced(int rate, int seconds, int threads, LongFunction<Instant> dueAt)
      throws InterruptedException {
    long start = System.nanoTime();
    long total = (long) rate * seconds;
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      Thread th =
          new Thread(
              () -> {
                try {
                  pacedRange(first, threads, total, rate, start, dueAt);
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "bench-paced-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("enqueue failed: " + errors.get(0), errors.get(0));
    }
  }

  private void pacedRange(
      long first, int step, long total, int rate, long start, LongFunction<Instant> dueAt)
      throws SQLException, InterruptedException {
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      c.setAutoCommit(false);
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      for (long i = first; i < total; i += step) {
        long wait = start + i * 1_000_000_000L / rate - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        Instant due = dueAt == null ? null : dueAt.apply(i);
        TaskRequest r = TaskRequest.to(handler).maxAttempts(3);
        String id = outbox.enqueue(due == null ? r : r.at(due));
        c.commit();
        commits.put(id, System.currentTimeMillis());
        enqueued.incrementAndGet();
      }
    }
  }
}
