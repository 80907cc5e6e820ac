package io.tasklane.outbox.internal;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Internal;
import io.tasklane.outbox.AsyncOutsideTransaction;
import io.tasklane.outbox.OutboxConfig;
import java.time.Duration;

/**
 * {@code tasklane.outbox.*}: the Micronaut view of {@link OutboxConfig} plus the {@code
 * async-outside-transaction} policy of {@code @OutboxAsync}. Validated by {@link #toConfig()}.
 */
@Internal
@ConfigurationProperties(OutboxProperties.PREFIX)
public class OutboxProperties {
  public static final String PREFIX = "tasklane.outbox";

  private int maxPayloadBytes = OutboxConfig.DEFAULT_MAX_PAYLOAD_BYTES;
  private int defaultMaxAttempts = OutboxConfig.DEFAULT_MAX_ATTEMPTS;
  private Duration defaultTimeout = OutboxConfig.DEFAULT_TIMEOUT;
  private boolean traceparent = OutboxConfig.DEFAULT_TRACEPARENT;
  private int batchRows = OutboxConfig.DEFAULT_BATCH_ROWS;
  private AsyncOutsideTransaction asyncOutsideTransaction = AsyncOutsideTransaction.REFUSE;

  public OutboxConfig toConfig() {
    return new OutboxConfig(
        maxPayloadBytes, defaultMaxAttempts, defaultTimeout, traceparent, batchRows);
  }

  public int getMaxPayloadBytes() {
    return maxPayloadBytes;
  }

  public void setMaxPayloadBytes(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  public int getDefaultMaxAttempts() {
    return defaultMaxAttempts;
  }

  public void setDefaultMaxAttempts(int defaultMaxAttempts) {
    this.defaultMaxAttempts = defaultMaxAttempts;
  }

  public Duration getDefaultTimeout() {
    return defaultTimeout;
  }

  public void setDefaultTimeout(Duration defaultTimeout) {
    this.defaultTimeout = defaultTimeout;
  }

  public boolean isTraceparent() {
    return traceparent;
  }

  public void setTraceparent(boolean traceparent) {
    this.traceparent = traceparent;
  }

  public int getBatchRows() {
    return batchRows;
  }

  public void setBatchRows(int batchRows) {
    this.batchRows = batchRows;
  }

  public AsyncOutsideTransaction getAsyncOutsideTransaction() {
    return asyncOutsideTransaction;
  }

  public void setAsyncOutsideTransaction(AsyncOutsideTransaction asyncOutsideTransaction) {
    this.asyncOutsideTransaction = asyncOutsideTransaction;
  }
}
