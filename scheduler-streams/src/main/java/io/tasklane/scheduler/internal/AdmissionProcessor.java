package io.tasklane.scheduler.internal;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskState;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import java.util.LinkedHashSet;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hop 1, {@code <ns>.tasks}: admits new tasks (dedupe by id, dependencies, immediate dispatch when
 * due), applies transactional cancels, and keeps recurring schedules ({@link ScheduleMachine}).
 * Also owns the due-index punctuator of its stream task.
 */
final class AdmissionProcessor implements Processor<String, byte[], String, Object> {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionProcessor.class);

  private static final TaskValidator VALIDATOR =
      new TaskValidator(new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));
  private static final ScheduleValidator SCHEDULES =
      new ScheduleValidator(new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));

  private final Engine engine;
  private ProcessorContext<String, Object> context;
  private TaskMachine machine;
  private ScheduleMachine schedules;
  private Commands commands;
  private Inputs inputs;

  AdmissionProcessor(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void init(ProcessorContext<String, Object> ctx) {
    this.context = ctx;
    this.machine = new TaskMachine(ctx, engine);
    this.commands = new Commands(machine);
    this.inputs = new Inputs("tasks", engine, machine.out);
    this.schedules = machine.openSchedules(ctx, this::admitHere);
    DuePunctuator punctuator = new DuePunctuator(machine, schedules);
    ctx.schedule(
        engine.settings().punctuationInterval(), PunctuationType.WALL_CLOCK_TIME, punctuator);
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
    TaskTopicRecord value = inputs.decode(record, WireCodec::decodeTaskRecord);
    if (value == null) {
      return;
    }
    long now = context.currentSystemTimeMs();
    inputs.guard(
        record,
        () -> {
          if (value instanceof TaskEnvelope task) {
            if (inputs.keyIs(record, task.routingKey(), "the task's routing key")) {
              engine
                  .spans()
                  .admit(
                      task,
                      record.key(),
                      context.recordMetadata().orElse(null),
                      () -> admit(record, task, now));
            }
          } else if (value instanceof CancelCommand c && ControlChecks.invalid(c) != null) {
            // No tombstone is kept for something that is not a task id.
            inputs.reject(record, ControlChecks.invalid(c), null);
          } else if (value instanceof CancelCommand cancel
              && inputs.keyIs(
                  record, machine.store.routingKeyOf(cancel.id()), "the routing key of its task")) {
            commands.cancel(cancel.id(), cancel.reason(), now);
          } else if (value instanceof ScheduleDefinition d
              && inputs.keyIs(record, d.name(), "the schedule's name")) {
            define(record, d, now);
          } else if (value instanceof Unschedule u
              && inputs.keyIs(record, u.name(), "the schedule's name")) {
            try {
              schedules.unschedule(SCHEDULES.validate(u), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "unschedule " + u.name() + ": " + e.getMessage(), e);
            }
          } else if (value instanceof ScheduleTrigger t
              && inputs.keyIs(record, t.name(), "the schedule's name")) {
            try {
              schedules.trigger(SCHEDULES.validate(t), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "schedule-trigger " + t.name() + ": " + e.getMessage(), e);
            }
          } else if (value instanceof ScheduleFireDone f
              && inputs.keyIs(record, f.name(), "the schedule's name")) {
            try {
              schedules.fireDone(SCHEDULES.validate(f), now);
            } catch (InvalidTaskException e) {
              inputs.reject(record, "schedule-fire-done " + f.name() + ": " + e.getMessage(), e);
            }
          }
        });
  }

  private void define(Record<String, byte[]> record, ScheduleDefinition d, long now) {
    try {
      schedules.define(SCHEDULES.validate(d, record.value().length), now);
    } catch (InvalidTaskException e) {
      inputs.reject(record, "schedule " + d.name() + ": " + e.getMessage(), e);
    }
  }

  private void admit(Record<String, byte[]> record, TaskEnvelope task, long now) {
    try {
      VALIDATOR.validate(task, record.value().length, now);
    } catch (InvalidTaskException e) {
      inputs.reject(record, "task " + task.id() + ": " + e.getMessage(), e);
      return;
    }
    admitValid(task, now);
  }

  /**
   * A schedule fire's task made by this stream task ({@link FireRunner}): admitted here, as if it
   * had come back from {@code <ns>.tasks}, when its routing key lands in this partition (by Kafka's
   * default key hashing over the tasks topic's partitions), which saves the fire a record written,
   * fetched and decoded. Its payload and limits come from a validated definition; a task the
   * validator still refuses goes through the topic and is rejected there, dead-lettered as any.
   */
  private boolean admitHere(TaskEnvelope task, long now) {
    int partitions = engine.settings().partitions();
    if (partitions <= 0
        || TaskIds.partitionOf(task.routingKey(), partitions) != context.taskId().partition()) {
      return false;
    }
    try {
      VALIDATOR.validate(task, 0, now);
    } catch (InvalidTaskException e) {
      return false;
    }
    admitValid(task, now);
    engine.metrics().count(SchedulerEvent.ADMITTED_HERE);
    return true;
  }

  /** Admits a validated task: dedupe by id, then a timer, a dispatch or a wait (stream thread). */
  private void admitValid(TaskEnvelope task, long now) {
    String id = task.id();
    TaskRecord previous = machine.store.get(id);
    if (previous != null && previous.task() != null) {
      refuseDuplicate(previous, task, now);
      return;
    }
    if (previous != null && previous.state() == TaskState.CANCELLED) {
      TaskRecord.Edit e = previous.edit();
      e.task = task;
      e.updatedAt = now;
      machine.store.put(id, previous, e.build());
      engine.metrics().count(SchedulerEvent.CANCELLED_BEFORE_ARRIVAL);
      ScheduleNotices.finished(
          task, id, TaskState.CANCELLED, previous.reason(), now, throughTopic());
      return;
    }
    TaskRecord.Edit e = (previous == null ? TaskRecord.empty() : previous).edit();
    e.task = task;
    if (task.dependsOn().isEmpty()) {
      machine.schedule(e, TaskState.PENDING, task.dueAt(), now);
    } else {
      e.state = TaskState.WAITING;
      e.noTimer();
      e.dueAt = task.dueAt();
      e.updatedAt = now;
      e.waitingOn.clear();
      e.waitingOn.addAll(new LinkedHashSet<>(task.dependsOn()));
      for (String dep : e.waitingOn) {
        machine.out.control(dep, ControlCommand.Await.of(dep, id, task.routingKey()), now);
      }
    }
    engine.metrics().count(SchedulerEvent.ADMITTED);
    machine.store.put(id, previous, e.build());
  }

  /**
   * Where an admission's own notices go: always through {@code <ns>.tasks}, never applied here, as
   * the admission may run inside a fire of the very schedule ({@link #admitHere}).
   */
  private ScheduleNotices.Sink throughTopic() {
    return ScheduleNotices.topic(machine.out);
  }

  /**
   * The first record of a task id wins: ids are stable (a keyed task's id is derived from its
   * handler and key) and the relay may replay records, so a repeat is dropped. A repeat whose
   * content differs (a keyed task enqueued again with new data, or a forged record) is also counted
   * ({@link SchedulerEvent#DUPLICATE_CONFLICT}), kept in the record for the status API and logged
   * at WARN the first time for this task.
   */
  private void refuseDuplicate(TaskRecord previous, TaskEnvelope task, long now) {
    String id = task.id();
    engine.metrics().count(SchedulerEvent.DUPLICATE);
    if (previous.state() != null && previous.state().isTerminal()) {
      // A schedule fire that derived an id it had made before (a reused trigger id) waits for
      // this task: tell it again, or it would count as running for ever.
      ScheduleNotices.finished(
          previous.task(), id, previous.state(), previous.reason(), now, throughTopic());
    }
    if (!RefusedDuplicate.conflicts(previous.task(), task)) {
      machine.store.reassertTimer(id, previous);
      return;
    }
    engine.metrics().count(SchedulerEvent.DUPLICATE_CONFLICT);
    if (previous.duplicatesRefused() == 0) {
      LOG.warn(
          "task {}: a record with the same id and different content was refused (the first record"
              + " of an id wins; handler {} vs stored {}, dueAt {} vs {}, createdAt {}, source {});"
              + " further ones are counted in the task's duplicatesRefused",
          id,
          task.handler(),
          previous.task().handler(),
          task.dueAt(),
          previous.task().dueAt(),
          task.createdAt(),
          task.source());
    }
    TaskRecord.Edit e = previous.edit();
    e.duplicatesRefused =
        previous.duplicatesRefused() == Integer.MAX_VALUE
            ? Integer.MAX_VALUE
            : previous.duplicatesRefused() + 1;
    e.lastRefusedDuplicate = RefusedDuplicate.of(task, now);
    machine.store.put(id, previous, e.build());
  }
}
