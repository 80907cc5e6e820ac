package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The query interface of the task lifecycle: what the HTTP API and the gauges may read of the tasks
 * of one partition (or of every local partition at once, when the stores given are Kafka Streams'
 * composite ones), typed — never a store key, an index encoding or a count key. The store layout
 * can change behind it without touching its readers. Read-only, over Kafka Streams' interactive
 * queries; called on any thread (Micronaut's blocking executor, a metrics scrape).
 */
public final class TaskReads {
  /** Reaches one store of what is read by its name; throws when it is not queryable now. */
  @FunctionalInterface
  public interface StoreSource {
    ReadOnlyKeyValueStore<?, ?> store(String name);
  }

  /** The tasks of one (state, handler) with their number. */
  public record GroupCount(TaskState state, String handler, long count) {}

  /** The states whose tasks may wait in a handler's queue for a slot (a group of their own). */
  public static final List<TaskState> QUEUEABLE = TaskIndex.QUEUEABLE;

  private final StoreSource source;

  private TaskReads(StoreSource source) {
    this.source = source;
  }

  /** The reads over the stores {@code source} reaches. */
  /**
   * The time in the search-index key of {@code r}'s entry, which a listing position holds: its
   * {@code updatedAt}, or a queued task's place in its queue ({@link QueueRank}).
   */
  public static long indexedAt(TaskRecord r) {
    return QueueRank.indexedAt(r);
  }

  public static TaskReads of(StoreSource source) {
    return new TaskReads(source);
  }

  /**
   * Where the task of routing key {@code routingKey} lives: its partition and the instance that
   * owns it now (null while unknown).
   */
  public static KeyQueryMetadata owner(KafkaStreams streams, String routingKey) {
    return streams.queryMetadataForKey(Stores.TASKS, routingKey, Serdes.String().serializer());
  }

  /**
   * Where the log lines of task {@code id} live (they are keyed by task id, in a sub-topology of
   * their own): their partition and the instance that owns it now.
   */
  public static KeyQueryMetadata logsOwner(KafkaStreams streams, String id) {
    return streams.queryMetadataForKey(Stores.TASK_LOGS, id, Serdes.String().serializer());
  }

  /** The log lines kept of task {@code id} (in the logs' partition), or null when none. */
  public TaskLogs logs(String id) {
    return this.<String, TaskLogs>store(Stores.TASK_LOGS).get(id);
  }

  /** Whether an instance whose stores are {@code storeNames} holds task stores. */
  public static boolean holdsTasks(java.util.Collection<String> storeNames) {
    return storeNames.contains(Stores.TASKS);
  }

  /** The record of task {@code id}, or null when none. */
  public TaskRecord task(String id) {
    return this.<String, TaskRecord>store(Stores.TASKS).get(id);
  }

  /** A (state, handler) group of the search index. */
  public record Group(TaskState state, String handler) {}

  /**
   * Every (state, handler) group that holds a search entry (a queued group counted as its state's):
   * one seek per group, in the index itself, so a task stored a moment ago is found whatever the
   * counts, written once per commit, say yet.
   */
  public List<Group> groups() {
    ReadOnlyKeyValueStore<Bytes, byte[]> index = store(Stores.TASK_INDEX);
    java.util.Set<Group> groups = new java.util.LinkedHashSet<>();
    for (TaskState state : TaskState.values()) {
      TaskIndex.handlersIn(index, state).forEach(h -> groups.add(new Group(state, h)));
    }
    for (TaskState state : QUEUEABLE) {
      TaskIndex.queuedHandlersIn(index, state).forEach(h -> groups.add(new Group(state, h)));
    }
    return new ArrayList<>(groups);
  }

  /** The non-zero number of tasks per (state, handler), in the stores' order. */
  public List<GroupCount> counts() {
    List<GroupCount> out = new ArrayList<>();
    try (KeyValueIterator<String, Long> it = this.<String, Long>store(Stores.STATE_COUNTS).all()) {
      while (it.hasNext()) {
        KeyValue<String, Long> kv = it.next();
        int sep = kv.key.indexOf(StateCounts.SEP);
        if (sep > 0 && kv.value != null && kv.value > 0) {
          out.add(
              new GroupCount(
                  TaskState.valueOf(kv.key.substring(0, sep)),
                  kv.key.substring(sep + 1),
                  kv.value));
        }
      }
    }
    return out;
  }

  /**
   * Every count entry summed by its state, the state totals and the per-handler counts alike (what
   * the state gauges have always shown).
   */
  public Map<TaskState, Long> countEntriesByState() {
    Map<TaskState, Long> sum = new EnumMap<>(TaskState.class);
    try (KeyValueIterator<String, Long> it = this.<String, Long>store(Stores.STATE_COUNTS).all()) {
      while (it.hasNext()) {
        KeyValue<String, Long> kv = it.next();
        TaskState state = StateCounts.stateOf(kv.key);
        if (state != null && kv.value != null) {
          sum.merge(state, kv.value, Long::sum);
        }
      }
    }
    return sum;
  }

  /**
   * One lane of a handler as the lanes store holds it now ({@link Lanes}).
   *
   * @param key the ordering or concurrency key
   * @param ordered whether it is an ordered lane (an {@code orderingKey})
   * @param holders the tasks that hold it, with their states (DEAD: the lane is blocked)
   * @param waiting how many tasks wait in it (an upper bound after a crash, {@link LaneHead})
   * @param head the first task waiting, or null
   */
  public record LaneRow(
      String key, boolean ordered, Map<String, TaskState> holders, int waiting, String head) {
    /** Whether a DEAD task holds the lane (it waits for an operator's retry or discard). */
    public boolean blocked() {
      return holders.containsValue(TaskState.DEAD);
    }
  }

  /** Hands every lane of {@code handler} (null: of every handler) to {@code action}. */
  public void forEachLane(String handler, Consumer<LaneRow> action) {
    ReadOnlyKeyValueStore<String, TaskRecord> tasks = store(Stores.TASKS);
    LaneStore.forEach(
        this.<Bytes, byte[]>store(Stores.LANES),
        handler,
        v -> {
          Map<String, TaskState> holders = new java.util.LinkedHashMap<>();
          for (String id : v.holders()) {
            TaskRecord r = tasks.get(id);
            holders.put(id, r == null ? null : r.state());
          }
          action.accept(
              new LaneRow(
                  v.lane().key(), v.lane().ordered(), holders, v.waiting(), v.firstWaiting()));
          return true;
        });
  }

  /** Hands the handler of every task queued for a slot to {@code handler}, one call per task. */
  public void forEachQueued(Consumer<String> handler) {
    TaskIndex.forEachQueued(this.<Bytes, byte[]>store(Stores.TASK_INDEX), handler);
  }

  /** About how many timers are armed (the due-index's estimate of its entries). */
  public long armedTimers() {
    return store(Stores.DUE_INDEX).approximateNumEntries();
  }

  /**
   * The search entries of the tasks in {@code state} of {@code handler} ({@code queued}: the ones
   * queued for a slot) last changed between {@code from} and {@code to}, in change order ({@code
   * asc}) or its reverse, starting at the entry of {@code cursorId} changed at {@code cursorAt}
   * when {@code cursorId} is not null (that entry included). Close it after use.
   */
  public SearchScan scan(
      TaskState state,
      String handler,
      boolean queued,
      long from,
      long to,
      long cursorAt,
      String cursorId,
      boolean asc) {
    byte[] prefix = TaskIndexKey.prefix(state, handler, queued);
    Bytes lo = TaskIndexKey.at(prefix, from);
    Bytes hi = TaskIndexKey.after(prefix, to);
    if (cursorId != null && asc && cursorAt >= from) {
      lo = TaskIndexKey.of(state, handler, queued, cursorAt, cursorId);
    } else if (cursorId != null && !asc && cursorAt <= to) {
      hi = TaskIndexKey.of(state, handler, queued, cursorAt, cursorId);
    }
    ReadOnlyKeyValueStore<Bytes, byte[]> index = store(Stores.TASK_INDEX);
    return new SearchScan(asc ? index.range(lo, hi) : index.reverseRange(lo, hi), prefix.length);
  }

  /** One group's search entries as {@link #scan} read them. Not thread-safe. */
  public static final class SearchScan implements AutoCloseable {
    private final KeyValueIterator<Bytes, byte[]> it;
    private final int prefixLength;
    private KeyValue<Bytes, byte[]> current;

    private SearchScan(KeyValueIterator<Bytes, byte[]> it, int prefixLength) {
      this.it = it;
      this.prefixLength = prefixLength;
    }

    /**
     * Moves to the next entry; false at the end. An entry deleted while the range is read (the
     * stream thread moved the task on) is skipped.
     */
    public boolean next() {
      do {
        if (!it.hasNext()) {
          return false;
        }
        current = it.next();
      } while (current.value == null);
      return true;
    }

    /** The task's id. */
    public String id() {
      return TaskIndexKey.taskId(current.key, prefixLength);
    }

    /** When the task last changed, as its entry says. */
    public long updatedAt() {
      return TaskIndexKey.updatedAt(current.key, prefixLength);
    }

    /** When the task was created. */
    public long createdAt() {
      return TaskIndexKey.createdAt(current.value);
    }

    /** The task's ordering key, or null. */
    public String orderingKey() {
      return TaskIndexKey.orderingKey(current.value);
    }

    @Override
    public void close() {
      it.close();
    }
  }

  @SuppressWarnings("unchecked")
  private <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
    return (ReadOnlyKeyValueStore<K, V>) source.store(name);
  }
}
