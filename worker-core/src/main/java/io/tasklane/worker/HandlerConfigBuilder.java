package io.tasklane.worker;

import java.time.Duration;

/**
 * Builds a {@link HandlerConfig} setting by setting; every setting left unset takes its default,
 * and {@link #build()} validates them all. Not thread-safe; use it on one thread.
 */
public final class HandlerConfigBuilder {
  private boolean enabled = true;
  private int concurrency = WorkerConfig.DEFAULT_CONCURRENCY;
  private Integer maxInFlight;
  private Duration timeout;
  private int partitions = WorkerConfig.DEFAULT_HANDLER_PARTITIONS;

  HandlerConfigBuilder() {}

  /** Sets enabled: false leaves the handler's topic unconsumed by this worker. */
  public HandlerConfigBuilder enabled(boolean enabled) {
    this.enabled = enabled;
    return this;
  }

  /** Sets concurrency: threads of the handler's own pool. */
  public HandlerConfigBuilder concurrency(int concurrency) {
    this.concurrency = concurrency;
    return this;
  }

  /** Sets maxInFlight: dispatches in the handler's pool; null: {@code 2 × concurrency}. */
  public HandlerConfigBuilder maxInFlight(Integer maxInFlight) {
    this.maxInFlight = maxInFlight;
    return this;
  }

  /** Sets timeout: execution timeout of one attempt; null: the task's own. */
  public HandlerConfigBuilder timeout(Duration timeout) {
    this.timeout = timeout;
    return this;
  }

  /** Sets partitions: partitions of the handler topic and its DLT when this worker creates them. */
  public HandlerConfigBuilder partitions(int partitions) {
    this.partitions = partitions;
    return this;
  }

  /**
   * The validated settings.
   *
   * @throws WorkerException naming the first setting out of range
   */
  public HandlerConfig build() {
    return new HandlerConfig(
        enabled,
        concurrency,
        maxInFlight == null ? 2 * concurrency : maxInFlight,
        timeout,
        partitions);
  }
}
