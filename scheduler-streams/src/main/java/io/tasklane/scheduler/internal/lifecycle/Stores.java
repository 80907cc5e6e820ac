package io.tasklane.scheduler.internal.lifecycle;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/** Names and builders of the scheduler's state stores, and of its processor nodes. */
public final class Stores {
  /** Task state by task id: {@link TaskRecord} as JSON. */
  public static final String TASKS = "tasklane-tasks";

  /** The due-index: {@code dueAt (8 bytes big-endian) ‖ taskId} → {@link TimerKind} byte. */
  public static final String DUE_INDEX = "tasklane-due-index";

  /** Number of tasks per state (state name → count), kept by every transition. */
  public static final String STATE_COUNTS = "tasklane-state-counts";

  /**
   * The search index: {@code state ‖ 0x00 ‖ handler ‖ 0x00 ‖ updatedAt (8 bytes big-endian) ‖
   * taskId} → {@code createdAt ‖ orderingKey} ({@link TaskIndexKey}), kept with every transition.
   */
  public static final String TASK_INDEX = "tasklane-task-index";

  /**
   * Handler log lines by task id ({@link TaskLogs} as JSON), from {@code <ns>.logs}; a sub-topology
   * of its own, purged after the retention.
   */
  /**
   * The lanes ({@link Lanes}): per {@link Lane} a head (its holders, next place, waiting count) and
   * the keys of the tasks waiting in it, in the order they joined.
   */
  public static final String LANES = "tasklane-lanes";

  /** The {@link CommitHook} of a stream task: no data, the moment before each commit. */
  public static final String COMMIT_HOOK = "tasklane-commit-hook";

  public static final String TASK_LOGS = "tasklane-task-logs";

  /** Recurring schedules by name: {@code ScheduleState} as JSON. */
  public static final String SCHEDULES = "tasklane-schedules";

  /**
   * The finished fires of recurring schedules ({@code FireLog}): {@code name ‖ 0x00 ‖ fireAt (8
   * bytes big-endian) ‖ fireId} → {@code FireRecord} as JSON; the newest 50 per schedule are read.
   */
  public static final String SCHEDULE_FIRES = "tasklane-schedule-fires";

  /**
   * The batches whose key belongs to a stream task ({@code BatchBook}): summaries, parts applied
   * and members' states, by string key.
   */
  public static final String BATCHES = "tasklane-batches";

  public static final String SOURCE_TASKS = "source-tasks";
  public static final String SOURCE_RESULTS = "source-results";
  public static final String SOURCE_CONTROL = "source-control";
  public static final String SOURCE_DEPENDENCIES = "source-dependencies";
  public static final String TASK_PROCESSOR = "tasks";
  public static final String SOURCE_LOGS = "source-logs";
  public static final String LOGS = "logs";
  public static final String SINK_DISPATCH = "sink-dispatch";
  public static final String SINK_DLT = "sink-dlt";
  public static final String SINK_CONTROL = "sink-control";
  public static final String SINK_SCHEDULER_DLT = "sink-scheduler-dlt";
  public static final String SINK_TASKS = "sink-tasks";
  public static final String SINK_INTERRUPTS = "sink-interrupts";
  public static final String SINK_UNIQUE_RELEASES = "sink-unique-releases";

  private Stores() {}

  /**
   * Not cached: a record is written through to RocksDB and the changelog at once. Kafka Streams'
   * record cache evicts from the store being written once the cache is full, and a dirty eviction
   * flushes that store's whole dirty set; records of a kilobyte filled the shared 10 MiB within a
   * commit interval at load, so the small stores' writes evicted and their folding was lost. Reads
   * of a DISPATCHED record come from the stream task's {@link TaskMemory}. Written through like the
   * schedule states, so that a fire's task is stored before its schedule moves on to the next fire
   * (a kill -9 between the two makes the fire again, under the same task id); a dispatch's record
   * is held until a commit ({@link DeferredWrites}). The indexes are written just after the record,
   * the counts once per commit ({@link StateCounts#flush}): after a kill -9 an entry a restored
   * record lacks is written back ({@link TimerRepair}), one it no longer matches is stale and
   * dropped ({@link DuePunctuator}).
   */
  public static StoreBuilder<KeyValueStore<String, TaskRecord>> tasks() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TASKS),
            Serdes.String(),
            new TaskRecordSerde())
        .withCachingDisabled();
  }

  /**
   * Not cached, like the search index: a timer entry lives from its record's write to its firing,
   * seconds apart under load, so the cache folded few puts with their deletes, while its sorted map
   * of keys sharing their time prefix was the largest cost of the stream thread left
   * (docs/scheduler-streams.md, *Why the due-index is not cached*). Written just after its record
   * ({@link TaskStore}, {@code ScheduleStore}), so it never leads the record: an entry a kill -9
   * lost is written back ({@link TimerRepair}), one left for an older record is stale and dropped
   * when it fires ({@link DuePunctuator}). A due scan starts at the stream task's first possible
   * due key, never at the fired entries' deletions before it ({@link DueIndex#due}).
   */
  public static StoreBuilder<KeyValueStore<Bytes, byte[]>> dueIndex() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(DUE_INDEX),
            Serdes.Bytes(),
            Serdes.ByteArray())
        .withCachingDisabled();
  }

  /**
   * Not cached: an entry moves with its record's state, and under load those moves are seconds
   * apart, so the cache folded few of them while its sorted map of long keys sharing their state
   * and handler prefix cost the stream thread more than the RocksDB writes and changelog records it
   * saved (docs/scheduler-streams.md, *Why the search index is not cached*). Written just after its
   * record ({@link TaskStore}), so it never leads the record: an entry a kill -9 lost is written
   * back ({@link TimerRepair}), and one left for an older state is checked against the record by
   * its readers.
   */
  public static StoreBuilder<KeyValueStore<Bytes, byte[]>> taskIndex() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TASK_INDEX),
            Serdes.Bytes(),
            Serdes.ByteArray())
        .withCachingDisabled();
  }

  /**
   * Not cached: a count moves in the stream task's memory and is written once per commit, just
   * before it, after the records of that commit ({@link StateCounts#flush}), whatever order Kafka
   * Streams flushes its stores in.
   */
  public static StoreBuilder<KeyValueStore<String, Long>> stateCounts() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(STATE_COUNTS),
            Serdes.String(),
            Serdes.Long())
        .withCachingDisabled();
  }

  /**
   * Not cached, like the indexes: its writes go to RocksDB and the changelog in the order they are
   * made, so that after a kill -9 the store holds a prefix of them, which {@link Lanes#open} checks
   * against the task records.
   */
  public static StoreBuilder<KeyValueStore<Bytes, byte[]>> lanes() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(LANES),
            Serdes.Bytes(),
            Serdes.ByteArray())
        .withCachingDisabled();
  }

  /** The rate limits' slots ({@link RateOwner}), cached. */
  public static StoreBuilder<KeyValueStore<String, byte[]>> rateLimits() {
    return RateOwner.builder();
  }

  public static StoreBuilder<KeyValueStore<String, TaskLogs>> taskLogs() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TASK_LOGS),
            Serdes.String(),
            TaskLogs.serde())
        .withCachingEnabled();
  }
}
