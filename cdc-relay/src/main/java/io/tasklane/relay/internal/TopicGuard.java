package io.tasklane.relay.internal;

import io.tasklane.core.TopicAdmin;
import io.tasklane.core.TopicReplication;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's topics ({@code <ns>.tasks}, {@code <ns>.relay.dlt}, ...): created at leadership with
 * {@link TopicAdmin#ensure}, then remembered as they are on the broker (partition count and the
 * configs set on the topic), so that a topic deleted while the relay runs is recreated as it was.
 * {@link #recreateMissing} is called by the sender when Kafka does not acknowledge a batch. Relay
 * and engine threads; thread-safe.
 */
final class TopicGuard {
  private static final Logger LOG = LoggerFactory.getLogger(TopicGuard.class);
  private static final long TIMEOUT_S = 10;

  private final KafkaClients kafka;
  private final RelayMetrics metrics;
  private final Map<String, TopicAdmin.Spec> specs = new ConcurrentHashMap<>();
  private final TopicReplication replication;

  TopicGuard(
      KafkaClients kafka,
      RelayMetrics metrics,
      List<TopicAdmin.Spec> wanted,
      TopicReplication replication) {
    this.kafka = kafka;
    this.metrics = metrics;
    this.replication = replication;
    wanted.forEach(s -> specs.put(s.name(), s));
  }

  /**
   * Creates the missing topics, then remembers each topic's actual partitions and its topic-level
   * configs (an operator's 12 partitions or retention survive a recreation).
   */
  void ensureAll() {
    try (Admin admin = kafka.admin()) {
      TopicAdmin.ensure(admin, List.copyOf(specs.values()), replication);
      for (TopicAdmin.Spec s : List.copyOf(specs.values())) {
        try {
          int partitions = TopicAdmin.partitions(admin, s.name()).orElse(s.partitions());
          specs.put(
              s.name(),
              new TopicAdmin.Spec(s.name(), partitions, s.replication(), topicConfigs(admin, s)));
        } catch (RuntimeException e) {
          LOG.debug("cannot describe topic {}; keeping its configured spec", s.name(), e);
        }
      }
    }
  }

  /**
   * Of {@code topics}, recreates those that no longer exist on the broker, as {@link #ensureAll}
   * remembered them, and logs a WARN naming each. A failed check or creation (Kafka down, no CREATE
   * right) is logged and answers what is missing anyway, so the caller retries.
   *
   * @return the topics that were missing (recreated or not); empty when all exist or the check
   *     failed
   */
  Set<String> recreateMissing(Collection<String> topics) {
    Set<String> missing = new LinkedHashSet<>();
    try (Admin admin = kafka.admin()) {
      Set<String> existing =
          admin
              .listTopics(
                  new ListTopicsOptions().timeoutMs((int) TimeUnit.SECONDS.toMillis(TIMEOUT_S)))
              .names()
              .get(TIMEOUT_S, TimeUnit.SECONDS);
      for (String t : topics) {
        if (specs.containsKey(t) && !existing.contains(t)) {
          missing.add(t);
        }
      }
      if (missing.isEmpty()) {
        metrics.missingTopics.set(List.of());
        return missing;
      }
      metrics.missingTopics.set(List.copyOf(missing));
      List<TopicAdmin.Spec> recreate = new ArrayList<>();
      for (String t : missing) {
        TopicAdmin.Spec s = specs.get(t);
        LOG.warn(
            "topic {} does not exist (deleted while the relay ran?): recreating it with {}"
                + " partitions and configs {}; rows wait for it, none is lost",
            t,
            s.partitions(),
            s.configs());
        recreate.add(s);
      }
      TopicAdmin.ensure(admin, recreate, replication);
      metrics.topicRecreations.increment(missing.size());
      LOG.warn("recreated topic(s) {}", missing);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      if (missing.isEmpty()) {
        LOG.debug("cannot check the relay's topics {}: {}", topics, e.toString());
      } else {
        LOG.warn(
            "topic(s) {} do not exist and the relay cannot recreate them ({}); rows wait until an"
                + " operator creates them (partitions {})",
            missing,
            e.getMessage(),
            partitionsOf(missing));
      }
    }
    return missing;
  }

  private Map<String, Integer> partitionsOf(Set<String> topics) {
    Map<String, Integer> out = new LinkedHashMap<>();
    topics.forEach(t -> out.put(t, specs.get(t).partitions()));
    return out;
  }

  /** The spec's configs plus every config set on the topic itself (not broker defaults). */
  private static Map<String, String> topicConfigs(Admin admin, TopicAdmin.Spec s)
      throws RuntimeException {
    Map<String, String> configs = new HashMap<>(s.configs());
    var resource = new ConfigResource(ConfigResource.Type.TOPIC, s.name());
    try {
      var config = admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
      for (ConfigEntry e : config.get(resource).entries()) {
        if (e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG && e.value() != null) {
          configs.put(e.name(), e.value());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.debug("cannot read the configs of topic {}", s.name(), e);
    }
    return Map.copyOf(configs);
  }
}
