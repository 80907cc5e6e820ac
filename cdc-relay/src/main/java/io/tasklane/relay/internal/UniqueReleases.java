package io.tasklane.relay.internal;

import io.tasklane.core.UniqueRelease;
import io.tasklane.core.WireCodec;
import io.tasklane.relay.RelayConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees the unique windows that end with their task (the outbox library's {@code unique(window,
 * until)}): reads {@code <ns>.unique-releases} ({@link UniqueRelease}, written by the scheduler
 * when such a task ends) in the consumer group {@code <ns>.relay-unique-releases} and deletes each
 * window's row of {@code tasklane_unique} while it still belongs to the task that ended ({@code
 * key_id} and {@code task_id}), so a window a later task took is never touched. Offsets are
 * committed after the deletes: a crash applies a release again, which changes nothing.
 *
 * <p>A failed delete (the database away, no DELETE right) rewinds to the failed records and tries
 * again after {@link #RETRY}; the window meanwhile holds as long as its length allows, never
 * longer. A database without the table has nothing to free. A record that does not read as a
 * release (never written by a scheduler) is skipped with a warning and counted: its window lasts
 * its full length. Polled by the leader loop thread while this relay leads; closed at the end of
 * the term.
 */
final class UniqueReleases implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UniqueReleases.class);

  /** How long after a failed delete the same releases are tried again. */
  static final Duration RETRY = Duration.ofSeconds(5);

  private static final Duration POLL = Duration.ofMillis(20);
  private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Jdbc jdbc;
  private final String table;
  private final Clock clock;
  private final RelayMetrics metrics;
  private long retryAt;
  private boolean warned;

  UniqueReleases(
      RelayConfig config, KafkaClients kafka, Jdbc jdbc, Clock clock, RelayMetrics metrics) {
    this.consumer = kafka.groupConsumer(groupId(config), "-unique-releases");
    this.jdbc = jdbc;
    this.table =
        config.postgres() && config.schema() != null
            ? config.schema() + "." + UniquePurger.TABLE
            : UniquePurger.TABLE;
    this.clock = clock;
    this.metrics = metrics;
    consumer.subscribe(List.of(config.topics().uniqueReleases()));
  }

  /** The consumer group of the relays of {@code config}'s namespace. */
  static String groupId(RelayConfig config) {
    return config.topics().namespace() + ".relay-unique-releases";
  }

  /**
   * Reads what arrived and frees those windows; returns how many rows it deleted. Never throws for
   * a database or a bad record: it tries again later.
   */
  int poll() {
    if (clock.millis() < retryAt) {
      return 0;
    }
    try {
      return pollOnce();
    } catch (KafkaException e) {
      metrics.uniqueReleaseErrors.increment();
      warn(
          "could not read the unique releases or commit their offsets (freeing {}; trying again"
              + " every {} s, warned once per term): {}",
          e);
      retryAt = clock.millis() + RETRY.toMillis();
      return 0;
    }
  }

  private void warn(String format, Exception e) {
    if (!warned) {
      warned = true;
      LOG.warn(format, table, RETRY.toSeconds(), e.toString());
    }
  }

  private int pollOnce() {
    ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
    if (records.isEmpty()) {
      return 0;
    }
    List<UniqueRelease> releases = new ArrayList<>(records.count());
    Map<TopicPartition, Long> first = new HashMap<>();
    Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : records) {
      TopicPartition tp = new TopicPartition(r.topic(), r.partition());
      first.putIfAbsent(tp, r.offset());
      next.put(tp, new OffsetAndMetadata(r.offset() + 1));
      UniqueRelease release = read(r);
      if (release != null) {
        releases.add(release);
      }
    }
    int deleted;
    try {
      deleted = delete(releases);
    } catch (SQLException e) {
      if (UniquePurger.missingTable(e)) {
        deleted = 0; // no unique windows in this database: nothing to free
      } else {
        metrics.uniqueReleaseErrors.increment();
        warn(
            "could not free ended unique windows in {} (grant the relay's user DELETE on it;"
                + " trying again every {} s, warned once per term): {}",
            e);
        rewind(first);
        retryAt = clock.millis() + RETRY.toMillis();
        return 0;
      }
    }
    try {
      consumer.commitSync(next, COMMIT_TIMEOUT);
    } catch (KafkaException e) {
      rewind(first); // applied again later: a delete made twice changes nothing
      throw e;
    }
    metrics.uniqueReleased.increment(deleted);
    return deleted;
  }

  /** Reads the records from {@code first} again at the next poll (the partitions still held). */
  private void rewind(Map<TopicPartition, Long> first) {
    Set<TopicPartition> held = consumer.assignment();
    first.forEach(
        (tp, offset) -> {
          if (held.contains(tp)) {
            consumer.seek(tp, offset);
          }
        });
  }

  private UniqueRelease read(ConsumerRecord<byte[], byte[]> r) {
    try {
      UniqueRelease u = r.value() == null ? null : WireCodec.decodeUniqueRelease(r.value());
      if (u != null && u.taskId() != null && u.handler() != null && u.key() != null) {
        return u;
      }
    } catch (RuntimeException e) {
      // counted below
    }
    metrics.uniqueReleaseInvalid.increment();
    LOG.warn(
        "skipped record {}-{}@{}: not a unique release (its window lasts its full length)",
        r.topic(),
        r.partition(),
        r.offset());
    return null;
  }

  private int delete(List<UniqueRelease> releases) throws SQLException {
    if (releases.isEmpty()) {
      return 0;
    }
    try (Connection c = jdbc.open();
        PreparedStatement ps =
            c.prepareStatement("DELETE FROM " + table + " WHERE key_id = ? AND task_id = ?")) {
      for (UniqueRelease u : releases) {
        ps.setString(1, u.keyId());
        ps.setString(2, u.taskId());
        ps.addBatch();
      }
      int n = 0;
      for (int count : ps.executeBatch()) {
        n += Math.max(0, count);
      }
      if (!c.getAutoCommit()) {
        c.commit();
      }
      return n;
    }
  }

  /** The partitions this relay reads now (for tests). */
  Set<TopicPartition> assignment() {
    return consumer.assignment();
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
