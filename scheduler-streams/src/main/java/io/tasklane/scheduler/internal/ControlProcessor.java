package io.tasklane.scheduler.internal;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.WireCodec;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Hop 3, {@code <ns>.control}: operator commands and the dependency protocol. */
final class ControlProcessor implements Processor<String, byte[], String, Object> {
  private final Engine engine;
  private ProcessorContext<String, Object> context;
  private TaskMachine machine;
  private Commands commands;
  private TaskStore store;
  private Inputs inputs;

  ControlProcessor(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void init(ProcessorContext<String, Object> ctx) {
    this.context = ctx;
    this.machine = new TaskMachine(ctx, engine);
    machine.openSchedules(ctx, FireRunner.LocalAdmission.NONE);
    this.commands = new Commands(machine);
    this.store = machine.store;
    this.inputs = new Inputs("control", engine, machine.out);
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
    ControlRecord value = inputs.decode(record, WireCodec::decodeControl);
    if (value == null) {
      return;
    }
    long now = context.currentSystemTimeMs();
    inputs.guard(
        record,
        () -> {
          if (value.id() == null || inputs.keyIs(record, expectedKey(value), keyName(value))) {
            apply(value, now);
          }
        });
  }

  /**
   * The key {@code value} must carry: an {@code await} is keyed by the dependency's id (see {@link
   * ControlCommand.Await}); every other command by the routing key of the task it names.
   */
  private String expectedKey(ControlRecord value) {
    return value instanceof ControlCommand.Await ? value.id() : store.routingKeyOf(value.id());
  }

  private static String keyName(ControlRecord value) {
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
      commands.cancel(c.id(), c.actor() == null ? c.reason() : byActor(c), now);
    } else if (value instanceof ControlCommand.RetryDead r) {
      commands.retryDead(r.id(), now);
    } else if (value instanceof ControlCommand.Trigger t) {
      commands.trigger(t.id(), now);
    } else if (value instanceof ControlCommand.Discard d) {
      commands.discard(d.id());
    } else if (value instanceof ControlCommand.Await a) {
      commands.await(a, now);
    } else if (value instanceof ControlCommand.DependencyDone d) {
      commands.dependencyDone(d, now);
    }
  }
}
