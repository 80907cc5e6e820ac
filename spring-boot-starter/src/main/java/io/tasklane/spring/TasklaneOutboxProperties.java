package io.tasklane.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The outbox's {@code tasklane.outbox.*} settings, declared for Spring Boot's configuration
 * metadata (IDE completion and documentation). The values the outbox runs with are read from the
 * Spring {@code Environment} by outbox-lib's own reader, which validates them (naming the setting
 * and its limits) and refuses unknown keys under {@code tasklane.outbox.}; this class only
 * describes them. Durations are written as {@code 30s}, {@code 5m} or ISO-8601 ({@code PT5M}).
 * Bound once at start-up.
 */
@ConfigurationProperties(prefix = "tasklane.outbox")
public class TasklaneOutboxProperties {
  /** Largest payload an enqueue accepts, in bytes (at most 1 MiB). */
  private Integer maxPayloadBytes;

  /** Attempts of a task that does not set its own (1 to 1000). */
  private Integer defaultMaxAttempts;

  /** Execution timeout of a task that does not set its own (1 s to 24 h). */
  private String defaultTimeout;

  /** Whether tasks carry the W3C traceparent of the current span (with OpenTelemetry). */
  private Boolean traceparent;

  /** Most tasks {@code enqueueAll} packs into one outbox row. */
  private Integer batchRows;

  /**
   * What an {@code @OutboxAsync} call outside a transaction does: {@code refuse} (the default,
   * {@code NoActiveTransactionException}) or {@code own_transaction}.
   */
  private String asyncOutsideTransaction;

  private final Flyway flyway = new Flyway();

  public Integer getMaxPayloadBytes() {
    return maxPayloadBytes;
  }

  public void setMaxPayloadBytes(Integer maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  public Integer getDefaultMaxAttempts() {
    return defaultMaxAttempts;
  }

  public void setDefaultMaxAttempts(Integer defaultMaxAttempts) {
    this.defaultMaxAttempts = defaultMaxAttempts;
  }

  public String getDefaultTimeout() {
    return defaultTimeout;
  }

  public void setDefaultTimeout(String defaultTimeout) {
    this.defaultTimeout = defaultTimeout;
  }

  public Boolean getTraceparent() {
    return traceparent;
  }

  public void setTraceparent(Boolean traceparent) {
    this.traceparent = traceparent;
  }

  public Integer getBatchRows() {
    return batchRows;
  }

  public void setBatchRows(Integer batchRows) {
    this.batchRows = batchRows;
  }

  public String getAsyncOutsideTransaction() {
    return asyncOutsideTransaction;
  }

  public void setAsyncOutsideTransaction(String asyncOutsideTransaction) {
    this.asyncOutsideTransaction = asyncOutsideTransaction;
  }

  public Flyway getFlyway() {
    return flyway;
  }

  /** {@code tasklane.outbox.flyway.*}. */
  public static class Flyway {
    /**
     * Whether Tasklane's own Flyway migrations (the outbox table) run at start-up, in a Flyway
     * history table of their own ({@code tasklane_schema_history}), beside the application's.
     */
    private boolean enabled;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }
}
