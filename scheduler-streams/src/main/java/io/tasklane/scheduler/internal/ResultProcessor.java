package io.tasklane.scheduler.internal;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hop 2, {@code <ns>.results}: applies a worker's result to the current attempt. Results for
 * unknown tasks or other attempts are counted and ignored (fencing).
 */
final class ResultProcessor implements Processor<String, byte[], String, Object> {
  private final Engine engine;
  private ProcessorContext<String, Object> context;
  private TaskMachine machine;
  private Inputs inputs;

  ResultProcessor(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void init(ProcessorContext<String, Object> ctx) {
    this.context = ctx;
    this.machine = new TaskMachine(ctx, engine);
    machine.openSchedules(ctx, FireRunner.LocalAdmission.NONE);
    this.inputs = new Inputs("results", engine, machine.out);
  }

  /** The stream task closes (moved, crashed or shut down): so does its store. */
  @Override
  public void close() {
    if (machine != null) {
      machine.close();
    }
  }

  @Override
  public void process(Record<String, byte[]> record) {
    machine.timed(record.timestamp(), context.currentSystemTimeMs(), () -> handle(record));
  }

  private void handle(Record<String, byte[]> record) {
    TaskResult result = inputs.decode(record, WireCodec::decodeResult);
    if (result == null) {
      return;
    }
    long now = context.currentSystemTimeMs();
    inputs.guard(
        record,
        () -> {
          if (result.id() == null
              || inputs.keyIs(
                  record, machine.store.routingKeyOf(result.id()), "the routing key of its task")) {
            apply(result, now);
          }
        });
  }

  private void apply(TaskResult r, long now) {
    String id = r.id();
    TaskRecord previous = id == null ? null : machine.store.get(id);
    if (previous == null || previous.task() == null) {
      engine.metrics().count(SchedulerEvent.RESULT_UNKNOWN);
      return;
    }
    if (r.attempt() != previous.attempt() || r.outcome() == null) {
      machine.store.reassertTimer(id, previous);
      engine.metrics().count(SchedulerEvent.RESULT_FENCED);
      return;
    }
    TaskRecord.Edit e = previous.edit();
    String error = r.error() == null ? null : r.error().message();
    String outcome = r.outcome().name();
    if (previous.state() == TaskState.CANCELLED) {
      // Recorded for the console, but a cancelled task is never revived.
      e.endAttempt(r.attempt(), now, outcome + " (after cancel)", error, r.worker());
      machine.store.put(id, previous, e.build());
      engine.metrics().count(SchedulerEvent.RESULT_AFTER_CANCEL);
      return;
    }
    boolean lateSuccess =
        previous.state() == TaskState.RETRYING && r.outcome() == io.tasklane.core.Outcome.SUCCEEDED;
    if (previous.state() != TaskState.DISPATCHED && !lateSuccess) {
      machine.store.reassertTimer(id, previous);
      engine.metrics().count(SchedulerEvent.RESULT_FENCED);
      return;
    }
    e.endAttempt(r.attempt(), now, outcome, error, r.worker());
    e.updatedAt = now;
    switch (r.outcome()) {
      case SUCCEEDED -> {
        e.lastError = null;
        machine.finish(e, id, TaskState.SUCCEEDED, null, now);
        engine.metrics().count(SchedulerEvent.SUCCEEDED);
      }
      case FAILED -> machine.fail(e, id, errorOf(r, "failed"), now);
      case PERMANENT_FAILURE ->
          machine.dead(e, id, errorOf(r, "permanent failure"), "permanent failure", now);
      case RETRY_LATER -> snooze(e, id, r, now);
        // Only answers an interrupt, which only a cancel sends: an interrupted attempt of a task
        // that is not CANCELLED (not expected) counts as a failed one and is retried.
      case CANCELLED -> machine.fail(e, id, errorOf(r, "interrupted"), now);
    }
    machine.store.put(id, previous, e.build());
  }

  private void snooze(TaskRecord.Edit e, String id, TaskResult r, long now) {
    e.snoozes++;
    int cap = engine.settings().snoozeCap();
    if (e.snoozes > cap) {
      String reason = "snoozed more than " + cap + " times (RETRY_LATER cap)";
      machine.dead(e, id, errorOf(r, "snooze cap"), reason, now);
      return;
    }
    long delay =
        r.retryAfterMs() != null
            ? Math.min(RetryPolicy.MAX_DELAY_MS, Math.max(0, r.retryAfterMs()))
            : e.task.backoff().delayMs(1, engine.random().get());
    machine.schedule(e, TaskState.RETRYING, now + delay, now);
  }

  private static ErrorInfo errorOf(TaskResult r, String fallback) {
    return r.error() != null ? r.error() : new ErrorInfo(fallback, r.outcome().name(), null);
  }
}
