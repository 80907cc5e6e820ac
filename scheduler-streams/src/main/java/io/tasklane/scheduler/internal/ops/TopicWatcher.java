package io.tasklane.scheduler.internal.ops;

import io.tasklane.core.ReplicationCheck;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import io.tasklane.scheduler.internal.lifecycle.HandlerTopics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The set of existing handler and DLT topics, refreshed from the cluster by an Admin client on a
 * timer thread. Creates the missing DLT of every handler topic it sees, so dead tasks always have
 * somewhere to go. Stream threads only read the volatile set.
 */
public final class TopicWatcher implements HandlerTopics {
  private static final Logger LOG = LoggerFactory.getLogger(TopicWatcher.class);

  private final Admin admin;
  private final Topics topics;
  private final int dltPartitions;
  private final TopicReplication.Resolved replication;
  private final String streamsPrefix;
  private volatile Set<String> known = Set.of();
  private volatile Map<String, Integer> underReplicated = Map.of();

  /**
   * @param replication how the DLTs it creates are replicated
   * @param applicationId Kafka Streams' application id: its internal topics are checked too
   */
  public TopicWatcher(
      Admin admin,
      Topics topics,
      int dltPartitions,
      TopicReplication.Resolved replication,
      String applicationId) {
    this.admin = admin;
    this.topics = topics;
    this.dltPartitions = dltPartitions;
    this.replication = replication;
    this.streamsPrefix = applicationId + "-";
  }

  /**
   * Partitions of Tasklane's and Kafka Streams' topics with fewer in-sync replicas than replicas,
   * by topic, as of the last refresh (empty when all are in sync).
   */
  public Map<String, Integer> underReplicated() {
    return underReplicated;
  }

  /** The existing topics of this namespace and of the Streams application among {@code names}. */
  Set<String> ours(Set<String> names) {
    return names.stream()
        .filter(n -> n.startsWith(topics.namespace() + ".") || n.startsWith(streamsPrefix))
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  @Override
  public boolean exists(String topic) {
    return known.contains(topic);
  }

  /** The handlers whose dispatch topic exists, as last listed, by name. */
  public java.util.SortedSet<String> handlers() {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (String t : known) {
      String h = topics.handlerOf(t);
      if (h != null) {
        out.add(h);
      }
    }
    return out;
  }

  /** Lists the cluster's topics and creates missing DLTs. Never throws (a timer calls it). */
  public void refresh() {
    try {
      Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<TopicAdmin.Spec> missing = new ArrayList<>();
      for (String name : names) {
        String handler = topics.handlerOf(name);
        if (handler != null && !names.contains(topics.handlerDlt(handler))) {
          missing.add(TopicAdmin.Spec.of(topics.handlerDlt(handler), dltPartitions));
        }
      }
      if (!missing.isEmpty()) {
        TopicAdmin.ensure(admin, missing, replication);
        missing.forEach(s -> LOG.info("created dead-letter topic {}", s.name()));
        names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      }
      String prefix = topics.namespace() + ".handler.";
      known =
          names.stream()
              .filter(n -> n.startsWith(prefix))
              .collect(java.util.stream.Collectors.toUnmodifiableSet());
      Map<String, Integer> under = ReplicationCheck.underReplicated(admin, ours(names));
      if (!under.isEmpty() && !under.equals(underReplicated)) {
        LOG.warn("under-replicated partitions (a broker is down or behind): {}", under);
      }
      underReplicated = Map.copyOf(under);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      LOG.warn("could not refresh the handler topics; keeping the last list: {}", t.toString());
    }
  }

  /**
   * Registers {@code tasklane.scheduler.under.replicated.partitions} in {@code registry}, read from
   * the last refresh.
   */
  public void registerGauge(io.micrometer.core.instrument.MeterRegistry registry) {
    io.micrometer.core.instrument.Gauge.builder(
            "tasklane.scheduler.under.replicated.partitions",
            () -> underReplicated().values().stream().mapToInt(Integer::intValue).sum())
        .description(
            "Partitions of Tasklane's and Kafka Streams' topics with fewer in-sync replicas than"
                + " replicas, as of the last topic refresh")
        .register(registry);
  }
}
