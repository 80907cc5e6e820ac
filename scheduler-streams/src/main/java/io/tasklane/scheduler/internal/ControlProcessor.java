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
  private Commands commands;

  ControlProcessor(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void init(ProcessorContext<String, Object> ctx) {
    this.context = ctx;
    engine.loads().forget(ctx.taskId()); // counted afresh from the restored stores
    this.commands = new Commands(new TaskMachine(ctx, engine));
  }

  /** The stream task closes (moved, crashed or shut down): its handler load is counted anew. */
  @Override
  public void close() {
    if (context != null) {
      engine.loads().forget(context.taskId());
    }
  }

  @Override
  public void process(Record<String, byte[]> record) {
    ControlRecord value = Inputs.decode("control", record, WireCodec::decodeControl, engine);
    if (value == null) {
      return;
    }
    long now = context.currentSystemTimeMs();
    Inputs.guard("control", record.key(), engine, () -> apply(value, now));
  }

  private void apply(ControlRecord value, long now) {
    if (value instanceof CancelCommand c) {
      commands.cancel(c.id(), c.reason(), now);
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
