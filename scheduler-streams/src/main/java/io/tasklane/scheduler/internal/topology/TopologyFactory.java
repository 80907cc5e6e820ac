package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.ControlRecord;
import io.tasklane.core.Dispatch;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.batches.BatchBook;
import io.tasklane.scheduler.internal.lifecycle.CommitHook;
import io.tasklane.scheduler.internal.lifecycle.DispatchPartitioner;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.ReportGrain;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.schedules.ScheduleStore;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;

/**
 * Builds the scheduler topology: one sub-topology reading {@code tasks}, {@code results}, {@code
 * control} and {@code dependencies} (co-partitioned) into one processor ({@link TaskProcessor})
 * that owns the task, due-index, search, state-count and schedule stores of its stream task, with
 * sinks for dispatches, dead letters, control records (the dependency protocol to {@code
 * dependencies}, which only the scheduler may write; a schedule's overlap cancel to {@code
 * control}), the scheduler's own DLT (records it could not decode or apply) and {@code tasks} (the
 * shard tasks of recurring schedules' fires, and the notices of finished shard tasks, which travel
 * keyed by the schedule's name to the partition that owns it; schedules live in a store shared by
 * the three processors, their finished fires in a second one, and an unsharded fire's task is
 * admitted where its schedule lives), and {@code interrupts} (the running attempts of cancelled
 * tasks). A second sub-topology keeps the handlers' log lines of {@code logs} by task id ({@link
 * LogProcessor}).
 */
public final class TopologyFactory {
  /**
   * How much older the records of {@code <ns>.dependencies} are read than they were written. Of the
   * records buffered for a stream task, Kafka Streams processes the one with the lowest timestamp
   * first; read a day older, the scheduler's own protocol records (the answer a task waiting for a
   * rate-limit slot needs, a dependency's end) go before a backlog of new tasks instead of waiting
   * behind it. {@link TaskProcessor} adds it back where it measures how far behind its input is.
   */
  public static final long PROTOCOL_FIRST_MS = java.time.Duration.ofDays(1).toMillis();

  private TopologyFactory() {}

  public static Topology build(Engine engine) {
    Serializer<Object> json = (topic, value) -> value == null ? null : WireCodec.encode(value);
    Topology t = new Topology();
    t.addSource(
        Stores.SOURCE_TASKS,
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        engine.topics().tasks());
    t.addSource(
        Stores.SOURCE_RESULTS,
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        engine.topics().results());
    t.addSource(
        Stores.SOURCE_CONTROL,
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        engine.topics().control());
    t.addSource(
        org.apache.kafka.streams.AutoOffsetReset.earliest(), // as Kafka Streams' default
        Stores.SOURCE_DEPENDENCIES,
        (record, partitionTime) -> record.timestamp() - PROTOCOL_FIRST_MS,
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        engine.topics().dependencies());
    t.addProcessor(
        Stores.TASK_PROCESSOR,
        () -> new TaskProcessor(engine),
        Stores.SOURCE_TASKS,
        Stores.SOURCE_RESULTS,
        Stores.SOURCE_CONTROL,
        Stores.SOURCE_DEPENDENCIES);
    String[] processors = {Stores.TASK_PROCESSOR};
    t.addStateStore(CommitHook.builder(), processors);
    t.addStateStore(Stores.tasks(), processors);
    t.addStateStore(Stores.dueIndex(), processors);
    t.addStateStore(Stores.stateCounts(), processors);
    t.addStateStore(Stores.taskIndex(), processors);
    t.addStateStore(Stores.lanes(), processors);
    t.addStateStore(Stores.rateLimits(), processors);
    t.addStateStore(ScheduleStore.statesStore(), processors);
    t.addStateStore(ScheduleStore.firesStore(), processors);
    t.addStateStore(BatchBook.storeBuilder(), processors);
    for (ReportGrain grain : ReportGrain.values()) {
      t.addStateStore(grain.storeBuilder(), processors);
    }
    t.addSource(
        Stores.SOURCE_LOGS,
        Serdes.ByteArray().deserializer(),
        Serdes.ByteArray().deserializer(),
        engine.topics().logs());
    t.addProcessor(Stores.LOGS, () -> new LogProcessor(engine), Stores.SOURCE_LOGS);
    t.addStateStore(Stores.taskLogs(), Stores.LOGS);
    t.addSink(
        Stores.SINK_DISPATCH,
        (key, value, ctx) -> engine.topics().handler(((Dispatch) value).task().handler()),
        Serdes.String().serializer(),
        json,
        new DispatchPartitioner(engine.settings().partitions()),
        processors);
    t.addSink(
        Stores.SINK_DLT,
        (key, value, ctx) -> engine.topics().handlerDlt(((Dispatch) value).task().handler()),
        Serdes.String().serializer(),
        json,
        processors);
    t.addSink(
        Stores.SINK_SCHEDULER_DLT,
        engine.topics().schedulerDlt(),
        Serdes.String().serializer(),
        (topic, value) -> (byte[]) value,
        processors);
    t.addSink(
        Stores.SINK_TASKS, engine.topics().tasks(), Serdes.String().serializer(), json, processors);
    t.addSink(
        Stores.SINK_INTERRUPTS,
        engine.topics().interrupts(),
        Serdes.String().serializer(),
        json,
        processors);
    t.addSink(
        Stores.SINK_UNIQUE_RELEASES,
        engine.topics().uniqueReleases(),
        Serdes.String().serializer(),
        json,
        processors);
    Serializer<ControlRecord> control = (topic, value) -> WireCodec.encode(value);
    t.addSink(
        Stores.SINK_CONTROL,
        (key, value, ctx) ->
            ControlChecks.isDependencyProtocol((ControlRecord) value)
                ? engine.topics().dependencies()
                : engine.topics().control(),
        Serdes.String().serializer(),
        (topic, value) -> control.serialize(topic, (ControlRecord) value),
        processors);
    return t;
  }
}
