package io.tasklane.scheduler;

import io.tasklane.core.SecretMasker;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checks {@link SchedulerConfig} applies to its settings, and its masked text: every refusal
 * names the setting ({@code tasklane.scheduler.<key>}) and the limit it broke.
 */
final class ConfigChecks {
  private static final String PREFIX = SchedulerConfig.PREFIX;

  private ConfigChecks() {}

  /** The configuration as it may be logged: tokens and secret Kafka settings masked. */
  static String describe(SchedulerConfig c) {
    return "SchedulerConfig[bootstrapServers="
        + SecretMasker.maskText(c.bootstrapServers())
        + ", namespace="
        + c.namespace()
        + ", applicationId="
        + c.applicationId()
        + ", partitions="
        + c.partitions()
        + ", punctuationInterval="
        + c.punctuationInterval()
        + ", scanBound="
        + c.scanBound()
        + ", processingGuarantee="
        + c.processingGuarantee().streamsValue()
        + ", commitInterval="
        + c.commitInterval()
        + ", numStandbyReplicas="
        + c.numStandbyReplicas()
        + ", stateDir="
        + c.stateDir()
        + ", retention="
        + c.retention()
        + ", snoozeCap="
        + c.snoozeCap()
        + ", timeoutGrace="
        + c.timeoutGrace()
        + ", maxDispatched="
        + c.maxDispatched()
        + ", adaptiveWindow="
        + c.adaptiveWindow()
        + ", priorityAging="
        + c.priorityAging()
        + ", topicRefreshInterval="
        + c.topicRefreshInterval()
        + ", advertisedHost="
        + (c.advertisedHost() == null ? "(detected)" : c.advertisedHost())
        + ", kafka="
        + SecretMasker.mask(c.kafka())
        + ", apiTokens="
        + c.apiTokens()
        + ", maxWaitersPerTask="
        + c.maxWaitersPerTask()
        + ", interInstanceToken="
        + (c.interInstanceToken() == null ? "(generated)" : SecretMasker.MASK)
        + ", api="
        + c.api()
        + ", workerGroupPrefix="
        + c.workerGroupPrefix()
        + ", workerLostHeartbeats="
        + c.workerLostHeartbeats()
        + ", searchScanBound="
        + c.searchScanBound()
        + ", logLinesPerTask="
        + c.logLinesPerTask()
        + ", logBytesPerTask="
        + c.logBytesPerTask()
        + ", alerts="
        + c.alerts()
        + ", storeMemoryMb="
        + c.storeMemoryMb()
        + ", scheduleLead="
        + c.scheduleLead()
        + ", replication="
        + c.replication()
        + ", interInstanceTrustStore="
        + c.interInstanceTrustStore()
        + "]";
  }

  static Duration orDefault(Duration d, Duration dflt) {
    return d == null ? dflt : d;
  }

  /**
   * {@code kafka.*} keys the scheduler's guarantees rest on, refused with or without a Streams
   * client prefix ({@code producer.}, {@code consumer.}, {@code main.consumer.}, ...): the
   * producers' {@code acks}, {@code enable.idempotence} and {@code transactional.id}; {@code
   * processing.guarantee} (the typed {@code processing-guarantee}); {@code enable.auto.commit} and
   * {@code isolation.level}, which Kafka Streams sets itself.
   */
  static final Set<String> PROTECTED_KAFKA_KEYS =
      Set.of(
          "acks",
          "enable.idempotence",
          "transactional.id",
          "processing.guarantee",
          "enable.auto.commit",
          "isolation.level");

  private static final List<String> CLIENT_PREFIXES =
      List.of(
          "producer.",
          "consumer.",
          "main.consumer.",
          "restore.consumer.",
          "global.consumer.",
          "admin.");

  static void refuseProtected(String key) {
    String bare = key;
    for (String prefix : CLIENT_PREFIXES) {
      if (key.startsWith(prefix)) {
        bare = key.substring(prefix.length());
      }
    }
    if (bare.equals("processing.guarantee")) {
      require("kafka." + key, false, "cannot be set: use " + PREFIX + ".processing-guarantee");
    }
    if (key.equals("commit.interval.ms")) {
      require("kafka." + key, false, "cannot be set: use " + PREFIX + ".commit-interval");
    }
    require(
        "kafka." + key,
        !PROTECTED_KAFKA_KEYS.contains(bare),
        "cannot be set: the scheduler (or Kafka Streams) sets it itself and its delivery"
            + " guarantees depend on it (refused, also with a Streams client prefix: "
            + String.join(", ", new TreeSet<>(PROTECTED_KAFKA_KEYS))
            + ")");
  }

  static void require(String key, boolean ok, String message) {
    if (!ok) {
      throw new SchedulerException(PREFIX + "." + key + ": " + message);
    }
  }

  static void range(String key, long value, long min, long max) {
    require(key, value >= min && value <= max, value + " is outside " + min + " to " + max);
  }

  static void range(String key, Duration value, Duration min, Duration max) {
    require(
        key,
        value.compareTo(min) >= 0 && value.compareTo(max) <= 0,
        value + " is outside " + min + " to " + max);
  }

  /**
   * At least one API token, names and secrets each used once; the inter-instance token, when set,
   * strong and unlike every API token.
   */
  static void tokens(List<ApiToken> apiTokens, String interInstanceToken) {
    require(
        "api.tokens",
        !apiTokens.isEmpty(),
        "needs at least one token, the syntax is name:token:role (role viewer, operator or admin,"
            + " several"
            + " separated by commas), each token at least "
            + TokenStrength.MIN_LENGTH
            + " characters and no placeholder, "
            + TokenStrength.HOW
            + "; every endpoint but /health requires one");
    Set<String> names = new HashSet<>();
    Set<String> secrets = new HashSet<>();
    for (ApiToken t : apiTokens) {
      require(
          "api.tokens",
          names.add(t.name()),
          "token name " + ApiToken.label(t.name()) + " is used twice");
      require(
          "api.tokens",
          secrets.add(t.token()),
          "token " + ApiToken.label(t.name()) + " repeats another token");
    }
    if (interInstanceToken != null) {
      String weak = TokenStrength.weakness(interInstanceToken);
      require(
          "inter-instance-token",
          weak == null,
          "is refused, " + TokenStrength.HOW + " (it " + weak + ")");
      require(
          "inter-instance-token",
          !secrets.contains(interInstanceToken),
          "must differ from every api token");
    }
  }
}
