package io.tasklane.core;

import java.util.regex.Pattern;

/**
 * Every topic name of the pipeline, in one place. A grep for {@code Topics.} shows the whole data
 * flow.
 *
 * <p>Names share a namespace prefix, {@code tasklane} by default, so several environments (or test
 * suites) can share one Kafka cluster. {@code tasks}, {@code results}, {@code control} and {@code
 * dependencies} must have the same partition count (they are co-partitioned by routing key).
 *
 * @param namespace the prefix of every topic name, e.g. {@code tasklane}
 */
public record Topics(String namespace) {

  private static final Pattern NAMESPACE = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9._-]{0,99}");

  /** The default namespace. */
  public static final String DEFAULT_NAMESPACE = "tasklane";

  /** Topics in the default namespace. */
  public static final Topics DEFAULT = new Topics(DEFAULT_NAMESPACE);

  public Topics {
    if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
      throw new InvalidTaskException(
          "namespace",
          "'" + namespace + "' must match " + NAMESPACE.pattern() + " (1 to 100 characters)");
    }
  }

  /** Task envelopes and cancel commands from the relay ({@code <ns>.tasks}). */
  public String tasks() {
    return namespace + ".tasks";
  }

  /** Worker results ({@code <ns>.results}). */
  public String results() {
    return namespace + ".results";
  }

  /** Operator commands: cancel, retry-dead, trigger, discard ({@code <ns>.control}). */
  public String control() {
    return namespace + ".control";
  }

  /**
   * The scheduler's own dependency protocol, {@code await} and {@code dependency-done} ({@code
   * <ns>.dependencies}): written by the scheduler only (its ACLs), never by an operator.
   */
  public String dependencies() {
    return namespace + ".dependencies";
  }

  /** Recurring schedule definitions, compacted ({@code <ns>.schedules}). */
  public String schedules() {
    return namespace + ".schedules";
  }

  /**
   * The code-defined schedules each worker app last published, compacted, keyed by the app ({@code
   * <ns>.recurring}); read and written by worker-runtime at start.
   */
  public String recurring() {
    return namespace + ".recurring";
  }

  /** Log lines written by handlers through {@code TaskContext} ({@code <ns>.logs}). */
  public String logs() {
    return namespace + ".logs";
  }

  /**
   * Who did what through the scheduler's HTTP API: one record per command, sign-in and refused
   * write, never a payload or a token ({@code <ns>.audit}); written and read by the scheduler.
   */
  public String audit() {
    return namespace + ".audit";
  }

  /**
   * Interrupts of running attempts, keyed by task id ({@code <ns>.interrupts}): written by the
   * scheduler when it cancels a DISPATCHED task, read from its end by every worker without a
   * consumer group.
   */
  public String interrupts() {
    return namespace + ".interrupts";
  }

  /**
   * The ends of tasks whose unique window ends with them ({@code <ns>.unique-releases}, {@link
   * UniqueRelease}), keyed by task id: written by the scheduler, read by the relay, which frees the
   * windows' rows.
   */
  public String uniqueReleases() {
    return namespace + ".unique-releases";
  }

  /**
   * Worker heartbeats, compacted, keyed by worker id ({@code <ns>.workers}); a tombstone on clean
   * shutdown.
   */
  public String workers() {
    return namespace + ".workers";
  }

  /**
   * Operator settings of each handler (paused, concurrency), compacted, keyed by handler name
   * ({@code <ns>.handler-settings}); written by the scheduler's API, read by the scheduler and by
   * every worker.
   */
  public String handlerSettings() {
    return namespace + ".handler-settings";
  }

  /**
   * Rate limits set at run time, compacted, keyed by the limit ({@code <ns>.rate-limits}: a named
   * limit's name, or {@code handler/<name>} for a handler's own rate); written by the scheduler's
   * API, read by every scheduler instance. A tombstone puts the configured limit back.
   */
  public String rateLimits() {
    return namespace + ".rate-limits";
  }

  /** Dispatches for one handler ({@code <ns>.handler.<handler>}). */
  public String handler(String handler) {
    HandlerNames.check(handler);
    return namespace + ".handler." + handler;
  }

  /** Dead letters of one handler ({@code <ns>.handler.<handler>.dlt}). */
  public String handlerDlt(String handler) {
    return handler(handler) + ".dlt";
  }

  /** The handler name of a dispatch topic, or {@code null} when the name is not one. */
  public String handlerOf(String topic) {
    String prefix = namespace + ".handler.";
    if (!topic.startsWith(prefix) || topic.endsWith(".dlt")) {
      return null;
    }
    String handler = topic.substring(prefix.length());
    return HandlerNames.isValid(handler) ? handler : null;
  }

  /** Debezium offsets of the relay ({@code <ns>.relay.offsets}). */
  public String relayOffsets() {
    return namespace + ".relay.offsets";
  }

  /** Debezium schema history of the relay ({@code <ns>.relay.history}). */
  public String relayHistory() {
    return namespace + ".relay.history";
  }

  /** Outbox rows the relay could not turn into records ({@code <ns>.relay.dlt}). */
  public String relayDlt() {
    return namespace + ".relay.dlt";
  }

  /**
   * Input records the scheduler could not decode or apply, and timers it could not fire ({@code
   * <ns>.scheduler.dlt}).
   */
  public String schedulerDlt() {
    return namespace + ".scheduler.dlt";
  }
}
