package io.tasklane.worker;

import io.tasklane.core.Shard;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One attempt of a task as seen by its handler. Used on the handler's pool thread only (the logger
 * may be used from any thread); valid until the handler returns.
 */
public interface TaskContext {
  /**
   * The task id (stable across attempts and redeliveries): the idempotency key for remote calls.
   */
  String taskId();

  /** The handler name. */
  String handler();

  /** 1-based attempt number. */
  int attempt();

  /** Attempts allowed in total; {@code attempt() == maxAttempts()} is the last one. */
  int maxAttempts();

  /** The slice of a broadcast run, if this task is one. */
  Optional<Shard> shard();

  /** When this attempt times out locally: the handler thread is interrupted then. */
  Instant deadline();

  /** The task's string headers, e.g. {@code traceparent}. */
  Map<String, String> headers();

  /**
   * True once the attempt timed out, its task was cancelled (an interrupt from the scheduler), the
   * worker is shutting down past its grace period, or the thread was interrupted. Long loops should
   * check it and stop.
   */
  boolean isCancelled();

  /** A logger whose lines go to the worker's log and to the console ({@code <ns>.logs}). */
  TaskLog log();

  /**
   * Reports how far this attempt got: {@code percent} (0 to 100; a value outside is clamped) and a
   * short {@code message} (may be null; 500 characters at most). Shown in the task's detail (API
   * {@code GET /api/tasks/{id}/logs}, {@code tasklane tasks show}, the console). Sent at most once
   * a second per attempt: a call within a second of the last one sent replaces the pending value,
   * which goes out a second after the last one, or when the attempt ends. Never throws and never
   * blocks; an update that is lost (a full producer buffer, a restart) changes nothing about the
   * task's outcome. Any thread.
   */
  default void progress(int percent, String message) {}

  /**
   * Runs {@code work} in one JDBC transaction of the worker's idempotency DataSource, after
   * inserting this task's id into {@code tasklane_processed} in that same transaction: the
   * handler's writes and the processed mark commit together or not at all (exactly-once effects in
   * that database). Runs on the calling thread; commits when {@code work} returns, rolls back when
   * it throws (and rethrows).
   *
   * @throws AlreadyProcessedException when the task was already processed (another delivery
   *     committed first); let it propagate: the attempt is reported as SUCCEEDED
   * @throws WorkerException when no JDBC idempotency store is configured
   */
  <R> R inTransaction(JdbcWork<R> work) throws Exception;
}
