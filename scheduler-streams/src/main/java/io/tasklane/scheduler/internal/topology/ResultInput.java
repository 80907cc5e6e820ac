package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.ResultMismatch;
import io.tasklane.scheduler.internal.lifecycle.Results;
import io.tasklane.scheduler.internal.lifecycle.TaskLifecycle;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hop 2, {@code <ns>.results}: decodes each result and checks its key, then hands it to the {@link
 * TaskLifecycle} ({@link Results}); a result that does not answer its dispatch ({@link
 * ResultMismatch}) goes to the scheduler DLT as {@code result-mismatch}. Used on the stream task's
 * thread ({@link TaskProcessor}).
 */
final class ResultInput {
  private final ProcessorContext<String, Object> context;
  private final TaskLifecycle tasks;
  private final Inputs inputs;

  ResultInput(ProcessorContext<String, Object> context, TaskLifecycle tasks) {
    this.context = context;
    this.tasks = tasks;
    this.inputs = new Inputs("results", tasks.engine, tasks.out);
  }

  /** Handles one record of {@code <ns>.results}. */
  void handle(Record<String, byte[]> record) {
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
                  record, tasks.routingKeyOf(result.id()), "the routing key of its task")) {
            try {
              tasks.result(result, now);
            } catch (ResultMismatch m) {
              inputs.mismatch(record, m.fields, m.getMessage());
            }
          }
        });
  }
}
