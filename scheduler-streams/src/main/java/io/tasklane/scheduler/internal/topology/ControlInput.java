package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.LogText;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.Commands;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.TaskLifecycle;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hop 3 ({@link TaskProcessor}): operator commands from {@code <ns>.control} and the scheduler's
 * own dependency protocol from {@code <ns>.dependencies} (one processor, both co-partitioned with
 * {@code tasks}). Each kind is accepted only from its own topic ({@link ControlChecks}); every id
 * must be a task id. Applied by the {@link TaskLifecycle}; used on the stream task's thread.
 */
final class ControlInput {
  private static final Logger LOG = LoggerFactory.getLogger(ControlInput.class);

  private final Engine engine;
  private final ProcessorContext<String, Object> context;
  private final TaskLifecycle tasks;
  private final Inputs inputs;

  ControlInput(ProcessorContext<String, Object> context, TaskLifecycle tasks) {
    this.engine = tasks.engine;
    this.context = context;
    this.tasks = tasks;
    this.inputs = new Inputs("control", engine, tasks.out);
  }

  /** Handles one record of {@code <ns>.control} or {@code <ns>.dependencies}. */
  void handle(Record<String, byte[]> record) {
    ControlRecord value = inputs.decode(record, WireCodec::decodeControl);
    if (value == null) {
      return;
    }
    long now = context.currentSystemTimeMs();
    boolean internal =
        engine
            .topics()
            .dependencies()
            .equals(context.recordMetadata().map(RecordMetadata::topic).orElse(null));
    inputs.guard(
        record,
        () -> {
          String invalid = ControlChecks.invalid(value);
          if (invalid != null) {
            inputs.reject(record, invalid, null);
          } else if (ControlChecks.isDependencyProtocol(value) != internal) {
            refuse(record, value, internal, now);
          } else if (inputs.keyIs(record, expectedKey(value), keyName(value))) {
            apply(value, now);
          }
        });
  }

  /**
   * A record on the other kind's topic, never applied: dead-lettered ({@link
   * ControlChecks#SCHEDULER_ONLY} for an {@code await} or {@code dependency-done} on {@code
   * <ns>.control}, which an operator principal may write; {@link ControlChecks#WRONG_TOPIC} for an
   * operator command on {@code <ns>.dependencies}) and counted {@code invalid.control}. A protocol
   * record on control (a forgery, or one an older scheduler wrote before the upgrade) is then
   * re-checked through the scheduler's own path only ({@link Commands#recheck}), which changes no
   * state by itself.
   */
  private void refuse(
      Record<String, byte[]> record, ControlRecord value, boolean internal, long now) {
    String type = ControlChecks.typeOf(value);
    String reason = internal ? ControlChecks.WRONG_TOPIC : ControlChecks.SCHEDULER_ONLY;
    String message =
        internal
            ? type
                + " on "
                + engine.topics().dependencies()
                + ": operator commands travel on "
                + engine.topics().control()
            : type
                + " on "
                + engine.topics().control()
                + ": the dependency protocol is the scheduler's own and travels on "
                + engine.topics().dependencies()
                + ", which only the scheduler may write; not applied";
    LOG.warn(
        "record not applied (key {}): {}; written to the scheduler DLT",
        LogText.escape(record.key()),
        LogText.escape(message, 1_000));
    engine.metrics().count(SchedulerEvent.INVALID_CONTROL);
    tasks.out.schedulerDeadLetter(
        record.key(), record.value(), reason, message, null, record.timestamp());
    engine.metrics().deadLettered(internal ? "dependencies" : "control", reason);
    if (!internal) {
      tasks.recheck(value, now);
    }
  }

  /**
   * The key {@code value} must carry: an {@code await} is keyed by the dependency's id (see {@link
   * ControlCommand.Await}); every other command by the routing key of the task it names.
   */
  private String expectedKey(ControlRecord value) {
    if (value instanceof ControlCommand.RateAsk a) {
      return ControlCommand.RateAsk.key(a.limit());
    }
    return value instanceof ControlCommand.Await ? value.id() : tasks.routingKeyOf(value.id());
  }

  private static String keyName(ControlRecord value) {
    if (value instanceof ControlCommand.RateAsk) {
      return "limit: and the name of the limit";
    }
    return value instanceof ControlCommand.Await
        ? "the id of the awaited task"
        : "the routing key of task " + value.id();
  }

  /** The cancel's reason naming its actor, e.g. {@code paid (by ops-alice)}. */
  private static String byActor(CancelCommand c) {
    return (c.reason() == null ? "" : c.reason() + " ") + "(by " + c.actor() + ")";
  }

  private void apply(ControlRecord value, long now) {
    if (value instanceof CancelCommand c) {
      tasks.cancel(c.id(), c.actor() == null ? c.reason() : byActor(c), now);
    } else {
      tasks.command(value, now);
    }
  }
}
