package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.TaskLogLine;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.EngineSettings;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TaskLogs;
import java.time.Duration;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the handler log lines of {@code <ns>.logs} (keyed by task id) in {@link Stores#TASK_LOGS},
 * a sub-topology of its own: at most {@code logLinesPerTask} lines and {@code logBytesPerTask}
 * bytes per task, later lines counted as dropped. A line that cannot be decoded is counted ({@code
 * invalid.logs}) and skipped. Every 10 s (wall clock) a punctuator reads the next {@link
 * #PURGE_SLICE} entries and deletes those whose last line is older than the retention. Runs on the
 * stream thread of its task; its writes reach the changelog at the next commit.
 */
public final class LogProcessor implements Processor<byte[], byte[], Void, Void> {
  static final int PURGE_SLICE = 10_000;

  private final Engine engine;
  private KeyValueStore<String, TaskLogs> store;
  private String purgedUpTo;

  LogProcessor(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    store = context.getStateStore(Stores.TASK_LOGS);
    context.schedule(Duration.ofSeconds(10), PunctuationType.WALL_CLOCK_TIME, this::purgeNextSlice);
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    TaskLogLine line;
    try {
      line = WireCodec.decode(record.value(), TaskLogLine.class);
    } catch (RuntimeException e) {
      engine.metrics().count(SchedulerEvent.INVALID_LOGS);
      return;
    }
    if (line.id() == null) {
      engine.metrics().count(SchedulerEvent.INVALID_LOGS);
      return;
    }
    TaskLogs now = store.get(line.id());
    EngineSettings s = engine.settings();
    store.put(
        line.id(),
        (now == null ? TaskLogs.EMPTY : now)
            .with(line, System.currentTimeMillis(), s.logLinesPerTask(), s.logBytesPerTask()));
  }

  /** Deletes the expired entries among the next slice, from where the last tick stopped. */
  private void purgeNextSlice(long now) {
    long before = now - engine.settings().retentionMs();
    int seen = 0;
    String last = null;
    try (KeyValueIterator<String, TaskLogs> it =
        purgedUpTo == null ? store.all() : store.range(purgedUpTo, null)) {
      while (it.hasNext() && seen < PURGE_SLICE) {
        KeyValue<String, TaskLogs> kv = it.next();
        last = kv.key;
        seen++;
        if (kv.value == null || kv.value.lastAt() < before) {
          store.put(kv.key, null);
        }
      }
    }
    purgedUpTo = seen < PURGE_SLICE ? null : last;
  }
}
