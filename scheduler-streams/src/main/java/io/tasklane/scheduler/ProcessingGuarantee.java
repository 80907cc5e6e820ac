package io.tasklane.scheduler;

import java.util.Locale;

/**
 * The Kafka Streams processing guarantee of the scheduler ({@code
 * tasklane.scheduler.processing-guarantee}, written {@code at_least_once} or {@code
 * exactly_once_v2}).
 */
public enum ProcessingGuarantee {
  /** Replays after a crash may repeat dispatches; the workers' idempotency absorbs them. */
  AT_LEAST_ONCE,
  /** Transactions: each input's state changes and outputs commit together. */
  EXACTLY_ONCE_V2;

  /** The value of Kafka Streams' {@code processing.guarantee}, as settings write it too. */
  public String streamsValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
