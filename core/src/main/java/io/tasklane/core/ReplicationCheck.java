package io.tasklane.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads how Tasklane's topics are replicated on the broker: the cluster's size (to resolve a {@link
 * TopicReplication}), topics that a single broker loss can empty (refused at start), and partitions
 * that have fewer in-sync replicas than replicas right now (a health warning). Called from start-up
 * and timer threads; each call blocks up to 30 s.
 */
public final class ReplicationCheck {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationCheck.class);

  /** The topic setting checked next to the replica count. */
  public static final String MIN_ISR_CONFIG = "min.insync.replicas";

  private ReplicationCheck() {}

  /** {@code policy} resolved against the live brokers {@code admin} sees. */
  public static TopicReplication.Resolved resolve(Admin admin, TopicReplication policy) {
    return policy.resolve(brokers(admin));
  }

  /** The live brokers of the cluster. */
  public static int brokers(Admin admin) {
    try {
      return admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
    } catch (ExecutionException e) {
      throw new TasklaneException("cannot describe the Kafka cluster: " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new TasklaneException("describing the Kafka cluster timed out after 30 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TasklaneException("interrupted while describing the Kafka cluster", e);
    }
  }

  /**
   * Refuses (throws {@link UnsafeReplicationException}) when one of {@code topics} that exists is
   * unsafe on a cluster of {@code resolved.brokers()} brokers, unless {@code
   * resolved.acceptsUnsafe()}, which logs each problem as a warning instead. Missing topics pass.
   */
  public static void requireSafe(
      Admin admin, Collection<String> topics, TopicReplication.Resolved resolved) {
    List<String> problems = unsafe(admin, topics, resolved.brokers());
    if (problems.isEmpty()) {
      return;
    }
    if (!resolved.acceptsUnsafe()) {
      throw new UnsafeReplicationException(problems);
    }
    problems.forEach(
        p ->
            LOG.warn(
                "{} (running anyway: {}={}, {}={}, {}={})",
                p,
                TopicReplication.FACTOR_KEY,
                resolved.factor(),
                TopicReplication.MIN_ISR_KEY,
                resolved.minInsyncReplicas(),
                TopicReplication.ALLOW_UNSAFE_KEY,
                resolved.allowUnsafe()));
  }

  /**
   * One line per existing topic of {@code topics} that a single broker loss can empty on a cluster
   * of {@code brokers}: one replica while there are more brokers, or {@code min.insync.replicas=1}
   * with three or more replicas.
   */
  public static List<String> unsafe(Admin admin, Collection<String> topics, int brokers) {
    Map<String, TopicDescription> described = describe(admin, topics);
    Map<String, Integer> minIsr = minIsr(admin, described.keySet());
    List<String> problems = new ArrayList<>();
    for (TopicDescription d : described.values()) {
      int replicas = d.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
      int isr = minIsr.getOrDefault(d.name(), 1);
      if (replicas == 1 && brokers > 1) {
        problems.add(
            "topic "
                + d.name()
                + " has 1 replica on a cluster of "
                + brokers
                + " brokers: records on a lost broker are lost. Raise its replication factor"
                + " with kafka-reassign-partitions.sh (a plan giving each partition three"
                + " replicas), then set min.insync.replicas=2");
      } else if (replicas >= 3 && isr < 2) {
        problems.add(
            "topic "
                + d.name()
                + " has "
                + replicas
                + " replicas but min.insync.replicas="
                + isr
                + ": an acknowledged write may live on one broker only. Fix: kafka-configs.sh"
                + " --bootstrap-server <servers> --alter --entity-type topics --entity-name "
                + d.name()
                + " --add-config min.insync.replicas=2");
      }
    }
    return problems;
  }

  /**
   * Partitions of the existing {@code topics} whose in-sync replicas are fewer than their replicas
   * (a broker is down or behind), by topic; topics with none are left out.
   */
  public static Map<String, Integer> underReplicated(Admin admin, Collection<String> topics) {
    Map<String, Integer> out = new HashMap<>();
    for (TopicDescription d : describe(admin, topics).values()) {
      int n = 0;
      for (TopicPartitionInfo p : d.partitions()) {
        if (p.isr().size() < p.replicas().size()) {
          n++;
        }
      }
      if (n > 0) {
        out.put(d.name(), n);
      }
    }
    return out;
  }

  /** Descriptions of those of {@code topics} that exist. */
  static Map<String, TopicDescription> describe(Admin admin, Collection<String> topics) {
    Map<String, TopicDescription> out = new HashMap<>();
    var futures = admin.describeTopics(topics).topicNameValues();
    for (var e : futures.entrySet()) {
      try {
        out.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS));
      } catch (ExecutionException ex) {
        if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw new TasklaneException(
              "cannot describe topic " + e.getKey() + ": " + ex.getCause(), ex);
        }
      } catch (TimeoutException ex) {
        throw new TasklaneException("describing topic " + e.getKey() + " timed out after 30 s", ex);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new TasklaneException("interrupted while describing " + e.getKey(), ex);
      }
    }
    return out;
  }

  private static Map<String, Integer> minIsr(Admin admin, Collection<String> topics) {
    Map<String, Integer> out = new HashMap<>();
    if (topics.isEmpty()) {
      return out;
    }
    List<ConfigResource> resources =
        topics.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
    Map<ConfigResource, Config> configs;
    try {
      configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // without DESCRIBE_CONFIGS the replica count is still checked
      LOG.warn(
          "cannot read {} of {}: {}",
          MIN_ISR_CONFIG,
          topics,
          e.getCause() == null ? e : e.getCause());
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return out;
    }
    configs.forEach(
        (r, c) -> {
          ConfigEntry entry = c.get(MIN_ISR_CONFIG);
          if (entry != null && entry.value() != null) {
            out.put(r.name(), Integer.parseInt(entry.value()));
          }
        });
    return out;
  }
}
