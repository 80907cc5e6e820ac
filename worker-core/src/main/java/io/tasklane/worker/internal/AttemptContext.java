package io.tasklane.worker.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.Shard;
import io.tasklane.worker.JdbcIdempotencyStore;
import io.tasklane.worker.JdbcWork;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskLog;
import io.tasklane.worker.WorkerException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/** The {@link TaskContext} of one attempt. */
final class AttemptContext implements TaskContext {
  private final Dispatch dispatch;
  private final String handler;
  private final Instant deadline;
  private final WorkerServices services;
  private final BooleanSupplier cancelled;
  private volatile boolean committed;
  private volatile TaskLog log;
  private volatile AttemptProgress progress;

  AttemptContext(
      Dispatch dispatch,
      String handler,
      Instant deadline,
      WorkerServices services,
      BooleanSupplier cancelled) {
    this.dispatch = dispatch;
    this.handler = handler;
    this.deadline = deadline;
    this.services = services;
    this.cancelled = cancelled;
  }

  @Override
  public String taskId() {
    return dispatch.id();
  }

  @Override
  public String handler() {
    return handler;
  }

  @Override
  public int attempt() {
    return dispatch.attempt();
  }

  @Override
  public int maxAttempts() {
    return dispatch.task().maxAttempts();
  }

  @Override
  public Optional<Shard> shard() {
    return Optional.ofNullable(dispatch.task().shard());
  }

  @Override
  public Instant deadline() {
    return deadline;
  }

  @Override
  public Map<String, String> headers() {
    return dispatch.task().headers();
  }

  @Override
  public boolean isCancelled() {
    return cancelled.getAsBoolean();
  }

  /** The attempt's log, made at the first call: most handlers never log. */
  @Override
  public TaskLog log() {
    TaskLog l = log;
    if (l == null) {
      synchronized (this) {
        l = log;
        if (l == null) {
          l =
              new BoundedTaskLog(
                  handler,
                  dispatch.id(),
                  dispatch.attempt(),
                  services.config().workerName(),
                  services.config().logBytesPerAttempt(),
                  services.publisher(),
                  services.clock());
          log = l;
        }
      }
    }
    return l;
  }

  @Override
  public void progress(int percent, String message) {
    try {
      AttemptProgress p = progress;
      if (p == null) {
        synchronized (this) {
          p = progress;
          if (p == null) {
            p =
                new AttemptProgress(
                    dispatch.id(),
                    dispatch.attempt(),
                    services.config().workerName(),
                    services.publisher()::log,
                    services.clock(),
                    services.timers());
            progress = p;
          }
        }
      }
      p.report(percent, message);
    } catch (RuntimeException e) {
      // progress never changes the task's outcome
    }
  }

  /** The attempt ended: its pending progress update goes out. */
  void endProgress() {
    AttemptProgress p = progress;
    if (p != null) {
      p.flush();
    }
  }

  @Override
  public <R> R inTransaction(JdbcWork<R> work) throws Exception {
    if (!(services.store() instanceof JdbcIdempotencyStore jdbc)) {
      throw new WorkerException(
          "TaskContext.inTransaction needs the JDBC idempotency store: define a javax.sql.DataSource"
              + " bean (and leave tasklane.worker.idempotency.enabled true)");
    }
    R result = jdbc.inTransaction(dispatch.id(), handler, work);
    committed = true;
    return result;
  }

  /** True once a transaction of this attempt committed the processed mark. */
  boolean markCommitted() {
    return committed;
  }
}
