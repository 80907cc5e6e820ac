package io.tasklane.worker.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.DispatchPriority;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireFormatException;
import io.tasklane.worker.AlreadyProcessedException;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.spi.WorkerMetrics;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dispatch, created on the consumer thread at receipt and run on a pool thread: decode (poison
 * → DLT), hold it until its {@code notBefore} (a schedule fire sent ahead), skip if already
 * processed, bind the payload, run the handler under its timeout, publish exactly one result, then
 * tell the consumer the record is done (only after the result's ack), and tell it separately when
 * the pool thread is free again (it may be before or after the ack). The timeout runs on the timer
 * thread: it interrupts the handler and publishes FAILED(timeout) at once, even if the handler
 * ignores the interrupt (its pool thread then stays busy until it returns). An interrupt for this
 * attempt ({@link RunningAttempts}, on the interrupt listener's thread) works the same way: it
 * interrupts the handler and publishes CANCELLED at once. Which of the three ends the attempt:
 * {@link AttemptState}.
 */
final class TaskExecution implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskExecution.class);

  private final ConsumerRecord<byte[], byte[]> record;
  private final HandlerDefinition handler;
  private final HandlerConfig config;
  private final WorkerServices services;
  private final WorkerMetrics.HandlerMetrics metrics;
  private final Runnable done;
  private final Runnable released;
  private final BooleanSupplier abandoned;
  private final AttemptState state = new AttemptState();
  private final Executor pool;
  private volatile Dispatch dispatch;
  private Results results;
  private final long receivedAt;
  private final long rank;
  private final long sequence = PoolOrder.next();
  private long startedAt;
  private long startNanos;
  private long timeoutMs;
  private long deadlineMs;

  TaskExecution(
      ConsumerRecord<byte[], byte[]> record,
      HandlerDefinition handler,
      HandlerConfig config,
      WorkerServices services,
      WorkerMetrics.HandlerMetrics metrics,
      Runnable done,
      Runnable released,
      BooleanSupplier abandoned,
      Executor pool) {
    this.record = record;
    this.pool = pool;
    this.abandoned = abandoned;
    this.handler = handler;
    this.config = config;
    this.services = services;
    this.metrics = metrics;
    this.done = done;
    this.released = released;
    this.receivedAt = services.clock().millis();
    this.rank = PoolOrder.rank(receivedAt, DispatchPriority.of(record.headers()));
  }

  /** Its place in the pool's queue ({@link PoolOrder}); then {@link #sequence()}. */
  long rank() {
    return rank;
  }

  /** The order it was received in, among the dispatches of every handler. */
  long sequence() {
    return sequence;
  }

  @Override
  public void run() {
    boolean held = false;
    try {
      held = execute();
    } catch (Throwable t) {
      LOG.error("unexpected error running a task of {}: {}", handler.name(), t.toString(), t);
      if (dispatch != null && state.finish()) {
        report(results.thrown(t));
      }
    } finally {
      if (!held) {
        if (dispatch != null) {
          services.attempts().remove(this);
        }
        released.run();
      }
    }
  }

  /** Pool thread: runs the attempt; true when it is held until its {@code notBefore} instead. */
  private boolean execute() {
    if (dispatch == null) {
      try {
        dispatch = handler.decode(record.value());
      } catch (RuntimeException e) {
        deadLetter(e, null);
        return false;
      }
    }
    long wait;
    try {
      wait = DispatchHold.remaining(dispatch, services.clock().millis(), receivedAt);
    } catch (WireFormatException e) {
      deadLetter(e, null);
      return false;
    }
    if (wait > 0) {
      hold(wait); // also when the timer woke it a little early
      return true;
    }
    startedAt = services.clock().millis();
    startNanos = System.nanoTime();
    results = new Results(dispatch, startedAt, services.clock(), services.config().workerName());
    state.start();
    metrics.started();
    services.attempts().register(this);
    if (!state.running()) {
      return false; // interrupted before it started
    }
    try {
      if (services.store().isProcessed(dispatch.id())) {
        metrics.duplicateSkipped();
        finish(results.succeeded());
        return false;
      }
    } catch (RuntimeException e) {
      finish(results.thrown(e));
      return false;
    }
    long missed = dispatch.slotMissedBy(startedAt);
    if (missed > 0) { // started now, it would crowd the limit's next slots: ask for a new one
      finish(results.slotMissed(missed));
      return false;
    }
    Object payload;
    try {
      payload = handler.bind(dispatch.task().payload());
    } catch (RuntimeException e) {
      if (!state.finish()) {
        return false; // interrupted meanwhile: CANCELLED is on its way
      }
      deadLetter(e, results.failure(Outcome.PERMANENT_FAILURE, ErrorInfo.of(e), null));
      return false;
    }
    TaskEnvelope task = dispatch.task();
    timeoutMs =
        config.timeout() != null
            ? config.timeout().toMillis()
            : task.timeoutMs() > 0 ? task.timeoutMs() : TaskEnvelope.DEFAULT_TIMEOUT_MS;
    AttemptBudget budget = AttemptBudget.of(dispatch, timeoutMs, receivedAt, startedAt);
    deadlineMs = budget.deadlineMs();
    if (budget.expired() != null) {
      finish(results.expired(budget.expired()));
      return false;
    }
    runHandler(payload);
    return false;
  }

  /**
   * Pool thread: a dispatch sent ahead of its instant ({@code notBefore}, a schedule fire) waits
   * {@code wait} ms for it without a pool thread: the timer thread hands it back to the pool then,
   * and the attempt keeps its {@code max-in-flight} slot meanwhile (its offset is not committed
   * until it finished). An interrupt that arrives meanwhile is remembered ({@link RunningAttempts})
   * and stops it as it starts. How long: {@link DispatchHold}.
   */
  private void hold(long wait) {
    try {
      services.timers().schedule(this::resume, wait, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      released.run(); // stopping: not committed, so redelivered after a restart
    }
  }

  /** Timer thread: the held dispatch's instant came; back to the pool. */
  private void resume() {
    try {
      pool.execute(this);
    } catch (RejectedExecutionException e) {
      released.run(); // stopping: not committed, redelivered after a restart
    }
  }

  private void runHandler(Object payload) {
    AttemptContext ctx =
        new AttemptContext(
            dispatch,
            handler.name(),
            Instant.ofEpochMilli(deadlineMs),
            services,
            () ->
                !state.running()
                    || abandoned.getAsBoolean()
                    || Thread.currentThread().isInterrupted());
    if (!state.bind()) {
      return; // interrupted before the handler started
    }
    ScheduledFuture<?> timer =
        services.timers().schedule(this::timeout, deadlineMs - startedAt, TimeUnit.MILLISECONDS);
    TaskResult result;
    try (AttemptScope scope =
        AttemptScope.open(services.tracing(), dispatch, handler.name(), record)) {
      try {
        handler.invoker().invoke(payload, ctx);
      } catch (Throwable t) {
        scope.failed(t);
        throw t;
      }
      if (!ctx.markCommitted()) {
        markProcessed();
      }
      result = results.succeeded();
    } catch (Throwable t) {
      if (t instanceof AlreadyProcessedException) {
        metrics.duplicateSkipped();
      }
      result = results.thrown(t);
    } finally {
      timer.cancel(false);
      ctx.endProgress();
    }
    finish(result);
  }

  private void markProcessed() {
    try {
      services.store().markProcessed(dispatch.id(), handler.name());
    } catch (RuntimeException e) {
      LOG.warn("task {} succeeded but its processed mark failed: {}", dispatch.id(), e.toString());
    }
  }

  /** Timer thread: the attempt ran out of time. */
  private void timeout() {
    if (!state.timeOut()) {
      return;
    }
    metrics.timedOut();
    LOG.warn(
        "task {} of {} timed out after {} ms; handler thread interrupted",
        dispatch.id(),
        handler.name(),
        deadlineMs - startedAt);
    report(results.timedOut(deadlineMs - startedAt));
  }

  /** The task id of this attempt (decoded: only asked of registered executions). */
  String taskId() {
    return dispatch.id();
  }

  /** The handler this attempt runs. */
  String handlerName() {
    return handler.name();
  }

  /**
   * Interrupt listener's thread (or the pool thread at registration): the task was cancelled; when
   * {@code interrupt} names this attempt and it is still running, interrupts the handler's thread
   * and publishes CANCELLED at once. A handler that ignores the interrupt keeps its pool thread
   * until it returns; what it returns then is dropped. True when this attempt was stopped.
   */
  boolean interrupt(TaskInterrupt interrupt) {
    Dispatch d = dispatch;
    if (d == null || interrupt.attempt() != d.attempt() || !d.id().equals(interrupt.id())) {
      return false;
    }
    if (!state.cancel()) {
      return false;
    }
    LOG.info(
        "task {} of {} attempt {} cancelled ({}); handler thread interrupted",
        d.id(),
        handler.name(),
        d.attempt(),
        interrupt.reason());
    report(results.cancelled(interrupt.reason()));
    return true;
  }

  /** Pool thread: publish unless the timer already did; clear a late interrupt. */
  private void finish(TaskResult result) {
    boolean mine = state.finish();
    Thread.interrupted();
    if (mine && abandoned.getAsBoolean()) {
      LOG.warn(
          "task {} of {} abandoned at shutdown after the grace period; it will be redelivered",
          dispatch.id(),
          handler.name());
    } else if (mine) {
      report(result);
    }
  }

  private void report(TaskResult result) {
    metrics.finished(result.outcome(), System.nanoTime() - startNanos);
    services.publisher().result(dispatch.routingKey(), result, metrics, done);
  }

  private void deadLetter(Throwable error, TaskResult thenReport) {
    metrics.deadLettered();
    LOG.warn(
        "poison record {}-{}@{} to the DLT of {}: {}",
        record.topic(),
        record.partition(),
        record.offset(),
        handler.name(),
        error.toString());
    Runnable after = thenReport == null ? done : () -> report(thenReport);
    services.publisher().deadLetter(handler.name(), record, error, metrics, after);
  }

  /** Consumer thread: the pool refused the task (it never does while max-in-flight holds). */
  void rejected() {
    LOG.error("pool of {} rejected a task; it will be redelivered after a restart", handler.name());
  }
}
