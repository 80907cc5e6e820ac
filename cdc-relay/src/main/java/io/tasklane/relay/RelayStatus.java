package io.tasklane.relay;

/**
 * A snapshot of a relay's counters (the same numbers {@code /health} and {@code /metrics} show).
 *
 * @param state where the relay is
 * @param relayed task and cancel records acknowledged by Kafka since start
 * @param deadLettered rows sent to {@code <ns>.relay.dlt}
 * @param ignored updates and deletes skipped
 * @param purged rows deleted by purge
 * @param watermark highest row id acknowledged by Kafka
 * @param binlogRecoveries times the relay re-read the table after its binlog position was purged
 * @param lastError the last error, or null
 * @param missingColumns contract columns the last outbox row lacked (the table was altered; such
 *     rows go to {@code <ns>.relay.dlt}), empty when the table is as expected
 * @param missingTopics relay topics found deleted at the last check, empty when all exist
 */
public record RelayStatus(
    RelayState state,
    long relayed,
    long deadLettered,
    long ignored,
    long purged,
    long watermark,
    long binlogRecoveries,
    String lastError,
    java.util.List<String> missingColumns,
    java.util.List<String> missingTopics) {}
