package io.tasklane.scheduler.internal.lifecycle;

import java.util.Map;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A state store that holds nothing and tells its stream task's {@link TaskLifecycle} when the
 * stream task is about to commit. Before every commit (and a clean close) Kafka Streams flushes the
 * record caches of the stream task's stores, then its producer, then commits the input offsets
 * (at-least-once) or the transaction ({@code exactly_once_v2}); this store takes part as a cached
 * store, so its {@link #flushCache} is that moment and the lifecycle writes the records it held
 * back ({@link DeferredWrites}) into the same commit. After a dirty close (a crash of the stream
 * task) Kafka Streams clears the caches instead: {@link #clearCache} drops what was held, as the
 * uncommitted work is redone from the input. Kafka Streams has no public hook before a commit; this
 * one uses its internal {@code CachedStateStore} contract, which {@code HeldDispatchPipelineTest}
 * checks against the Kafka Streams version in use. Not persistent, no changelog, nothing to
 * restore. One instance per stream task, used on its stream thread only.
 */
public final class CommitHook implements StateStore, CachedStateStore<Object, Object> {
  private final String name;
  private Runnable beforeCommit = () -> {};
  private Runnable onCrash = () -> {};
  private boolean open;

  private CommitHook(String name) {
    this.name = name;
  }

  /** The builder the topology adds (once per stream task it builds one hook). */
  public static StoreBuilder<CommitHook> builder() {
    return new Builder();
  }

  /**
   * Runs {@code write} before every commit and {@code drop} after a dirty close, from now on (the
   * lifecycle, at its processor's init).
   */
  void beforeCommit(Runnable write, Runnable drop) {
    this.beforeCommit = write;
    this.onCrash = drop;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    context.register(root, (key, value) -> {});
    open = true;
  }

  @Override
  public void flushCache() {
    beforeCommit.run();
  }

  /** Also before a checkpoint and at a clean close; nothing is held then, unless a path skips. */
  @Override
  public void flush() {
    beforeCommit.run();
  }

  @Override
  public void clearCache() {
    onCrash.run();
  }

  @Override
  public boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean old) {
    return false; // nothing is forwarded
  }

  @Override
  public void close() {
    open = false;
  }

  @Override
  public boolean persistent() {
    return false;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  private static final class Builder implements StoreBuilder<CommitHook> {
    @Override
    public StoreBuilder<CommitHook> withCachingEnabled() {
      return this;
    }

    @Override
    public StoreBuilder<CommitHook> withCachingDisabled() {
      return this;
    }

    @Override
    public StoreBuilder<CommitHook> withLoggingEnabled(Map<String, String> config) {
      throw new UnsupportedOperationException("the commit hook holds nothing to log");
    }

    @Override
    public StoreBuilder<CommitHook> withLoggingDisabled() {
      return this;
    }

    @Override
    public CommitHook build() {
      return new CommitHook(Stores.COMMIT_HOOK);
    }

    @Override
    public Map<String, String> logConfig() {
      return Map.of();
    }

    @Override
    public boolean loggingEnabled() {
      return false;
    }

    @Override
    public String name() {
      return Stores.COMMIT_HOOK;
    }
  }
}
