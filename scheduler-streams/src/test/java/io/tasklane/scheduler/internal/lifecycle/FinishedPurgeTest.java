package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished task carries no purge timer: it is forgotten through its search entry once the
 * retention has passed since its last change, with its entry and its count; a task without an
 * envelope keeps its timer, and a finished task an earlier version stored with a purge timer is
 * forgotten once.
 */
class FinishedPurgeTest {
  static final long RETENTION = Duration.ofDays(7).toMillis();

  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void open() {
    d = new Driver(dir);
  }

  @AfterEach
  void close() {
    d.close();
  }

  private TaskEnvelope succeeded() {
    TaskEnvelope task = Driver.task(d.now);
    d.send(task);
    Dispatch dispatch = d.dispatches().get(0);
    d.sendResult(dispatch, TaskResult.succeeded(task.id(), 1, d.now, d.now, "w1"));
    return task;
  }

  private long searchEntries() {
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.TASK_INDEX);
    long n = 0;
    try (var it = index.all()) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  @Test
  void aFinishedTaskIsForgottenAfterTheRetentionWithNoTimer() {
    TaskEnvelope first = succeeded();
    TaskRecord done = d.record(first.id());
    assertThat(done.state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(done.hasTimer()).as("no purge timer").isFalse();
    assertThat(d.indexSize()).as("no due-index entry").isZero();

    d.advanceTo(T0 + 60_000);
    TaskEnvelope second = succeeded();
    assertThat(d.count("SUCCEEDED")).isEqualTo(2);

    d.advanceTo(T0 + RETENTION - 1);
    assertThat(d.record(first.id())).isNotNull();

    d.advanceTo(T0 + RETENTION + 1_000);
    assertThat(d.record(first.id())).as("past its retention").isNull();
    assertThat(d.record(second.id())).as("finished a minute later").isNotNull();
    assertThat(d.count("SUCCEEDED")).isEqualTo(1);
    assertThat(d.metrics.get(SchedulerEvent.PURGED)).isEqualTo(1);

    d.advanceTo(T0 + 60_000 + RETENTION + 1_000);
    assertThat(d.record(second.id())).isNull();
    assertThat(d.count("SUCCEEDED")).isZero();
    assertThat(searchEntries()).isZero();
  }

  @Test
  void aCancelBeforeItsTaskKeepsItsPurgeTimer() {
    String id = UUID.randomUUID().toString();
    d.send(id, CancelCommand.of(id, "early", d.now));
    TaskRecord placeholder = d.record(id);
    assertThat(placeholder.state()).isEqualTo(TaskState.CANCELLED);
    assertThat(placeholder.timerKind()).isEqualTo(TimerKind.PURGE);
    d.advanceTo(T0 + RETENTION + 1_000);
    assertThat(d.record(id)).isNull();
  }

  @Test
  void aFinishedTaskStoredWithAPurgeTimerIsForgottenOnceByEither() {
    TaskEnvelope task = succeeded();
    // as an earlier version stored it: a purge timer in the record and its due-index entry
    KeyValueStore<String, TaskRecord> tasks = d.driver.getKeyValueStore(Stores.TASKS);
    KeyValueStore<Bytes, byte[]> due = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    TaskRecord stored = tasks.get(task.id());
    long purgeAt = stored.finishedAt() + RETENTION;
    tasks.put(task.id(), stored.edit().timer(purgeAt, TimerKind.PURGE).build());
    due.put(DueIndexKey.of(purgeAt, task.id()), new byte[] {TimerKind.PURGE.code});

    d.advanceTo(purgeAt + 1_000);
    assertThat(d.record(task.id())).isNull();
    assertThat(d.indexSize()).isZero();
    assertThat(searchEntries()).isZero();
    assertThat(d.count("SUCCEEDED")).isZero();
    assertThat(d.metrics.get(SchedulerEvent.PURGED)).isEqualTo(1);
  }

  @Test
  void aStaleEntryIsOnlyRemovedAndTheOthersArePurgedInTheSameTick() {
    List<TaskEnvelope> done = List.of(succeeded(), succeeded(), succeeded());
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.TASK_INDEX);
    Bytes stale =
        TaskIndexKey.of(TaskState.SUCCEEDED, Driver.HANDLER, T0 - 5, UUID.randomUUID().toString());
    index.put(stale, TaskIndexKey.value(d.record(done.get(0).id())));

    d.advanceTo(T0 + RETENTION + 1_000);
    done.forEach(t -> assertThat(d.record(t.id())).isNull());
    assertThat(index.get(stale)).isNull();
    assertThat(d.metrics.get(SchedulerEvent.PURGED)).isEqualTo(3);
  }

  @Test
  @SuppressWarnings("unchecked")
  void aRecordThatCannotBeReadAtItsPurgeIsForgottenAndDeadLettered() {
    TaskEnvelope task = succeeded();
    TaskEnvelope other = succeeded();
    KeyValueStore<String, TaskRecord> tasks = d.driver.getKeyValueStore(Stores.TASKS);
    KeyValueStore<Bytes, byte[]> raw =
        (KeyValueStore<Bytes, byte[]>)
            ((org.apache.kafka.streams.state.internals.WrappedStateStore<?, ?, ?>) tasks).wrapped();
    raw.put(
        Bytes.wrap(task.id().getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        new byte[] {9, 9, 9}); // of no format this version reads
    d.reopen(new org.apache.kafka.streams.processor.TaskId(0, 0));

    d.advanceTo(T0 + RETENTION + 1_000);

    assertThat(raw.get(Bytes.wrap(task.id().getBytes(java.nio.charset.StandardCharsets.UTF_8))))
        .isNull();
    assertThat(d.record(other.id())).as("the other task is purged as usual").isNull();
    assertThat(searchEntries()).isZero();
    assertThat(d.read(d.topics.schedulerDlt()))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.key()).isEqualTo(task.id());
              assertThat(
                      new String(
                          r.headers().lastHeader(Outputs.REASON).value(),
                          java.nio.charset.StandardCharsets.UTF_8))
                  .isEqualTo("purge-failed");
            });
  }
}
