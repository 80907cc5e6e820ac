package io.tasklane.scheduler.internal.topology;

import io.tasklane.scheduler.internal.batches.BatchBook;
import io.tasklane.scheduler.internal.batches.BatchNotices;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.TaskLifecycle;
import io.tasklane.scheduler.internal.lifecycle.TimerFiring;
import io.tasklane.scheduler.internal.lifecycle.Transitions;
import io.tasklane.scheduler.internal.schedules.ScheduleMachine;
import io.tasklane.scheduler.internal.schedules.ScheduleNotices;
import io.tasklane.scheduler.internal.schedules.ScheduleStore;
import java.time.Duration;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The one processor of a stream task of the task sub-topology: reads {@code <ns>.tasks}, {@code
 * results}, {@code control} and {@code dependencies} (co-partitioned) and hands each record to the
 * input of its topic ({@link AdmissionInput}, {@link ResultInput}, {@link ControlInput}), which
 * translate it into calls on the stream task's {@link TaskLifecycle} and {@link ScheduleMachine}.
 * Both are made once, in {@link #init}, and are all the stream task keeps: no state is shared with
 * other stream tasks. Its punctuator ({@link TaskLifecycle#punctuator}) fires their timers; a
 * second one deletes the batches past the retention ({@link BatchBook#purgeNextSlice}). Used on the
 * stream task's thread.
 */
public final class TaskProcessor implements Processor<String, byte[], String, Object> {
  /** How often the stream task deletes a slice of its batches past the retention. */
  static final Duration BATCH_PURGE_EVERY = Duration.ofSeconds(10);

  private final Engine engine;
  private final String resultsTopic;
  private final String tasksTopic;
  private final String dependenciesTopic;
  private ProcessorContext<String, Object> context;
  private TaskLifecycle tasks;
  private AdmissionInput admission;
  private ResultInput results;
  private ControlInput control;

  TaskProcessor(Engine engine) {
    this.engine = engine;
    this.resultsTopic = engine.topics().results(); // named once: routing runs for every record
    this.tasksTopic = engine.topics().tasks();
    this.dependenciesTopic = engine.topics().dependencies();
  }

  @Override
  public void init(ProcessorContext<String, Object> ctx) {
    this.context = ctx;
    this.tasks = new TaskLifecycle(ctx, engine);
    ScheduleStore store =
        new ScheduleStore(ctx, tasks.scheduleTimers(), engine.settings().scheduleLeadMs());
    ScheduleMachine schedules = new ScheduleMachine(store, engine, tasks.out, tasks::admitHere);
    Transitions.FinishListener scheduleNotices =
        ScheduleNotices.listener(
            ctx.taskId().partition(), engine.settings().partitions(), schedules, tasks.out);
    Transitions.FinishListener batchNotices = BatchNotices.listener(tasks.out);
    tasks.onFinished(
        (task, id, state, reason, now, here) -> {
          scheduleNotices.finished(task, id, state, reason, now, here);
          batchNotices.finished(task, id, state, reason, now, here);
        });
    tasks.onScheduleTimers(
        new TimerFiring.ScheduleTimers() {
          @Override
          public void fire(String timerId, long at, long now) {
            schedules.fire(ScheduleStore.nameOf(timerId), at, now);
          }

          @Override
          public void repairNextSlice(int slice, long budgetNanos) {
            schedules.repairNextSlice(slice, budgetNanos);
          }
        });
    BatchBook batches = new BatchBook(ctx, tasks.out, engine.metrics());
    this.admission = new AdmissionInput(ctx, tasks, schedules, batches);
    ctx.schedule(
        BATCH_PURGE_EVERY,
        PunctuationType.WALL_CLOCK_TIME,
        now -> batches.purgeNextSlice(now, engine.settings().retentionMs()));
    this.results = new ResultInput(ctx, tasks);
    this.control = new ControlInput(ctx, tasks);
    ctx.schedule(
        engine.settings().punctuationInterval(),
        PunctuationType.WALL_CLOCK_TIME,
        tasks.punctuator());
    engine
        .memory()
        .opened(
            ctx.taskId(),
            () -> {
              tasks.forgetMemory();
              store.forgetMemory();
            });
  }

  /** The stream task closes (moved, crashed or shut down): so do its stores. */
  @Override
  public void close() {
    if (tasks != null) {
      tasks.close();
    }
  }

  @Override
  public void process(Record<String, byte[]> record) {
    String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
    long written =
        topic.equals(dependenciesTopic)
            ? record.timestamp() + TopologyFactory.PROTOCOL_FIRST_MS // read as older, see there
            : record.timestamp();
    tasks.timed(written, context.currentSystemTimeMs(), () -> route(topic, record));
  }

  private void route(String topic, Record<String, byte[]> record) {
    if (topic.equals(resultsTopic)) {
      results.handle(record);
    } else if (topic.equals(tasksTopic)) {
      admission.handle(record);
    } else {
      control.handle(record);
    }
  }
}
