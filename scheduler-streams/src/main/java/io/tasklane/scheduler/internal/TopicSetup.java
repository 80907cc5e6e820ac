package io.tasklane.scheduler.internal;

import io.tasklane.core.ReplicationCheck;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * The scheduler's topics at start: made when missing (with the cluster's replication), checked
 * (replication of Kafka Streams' own topics, co-partitioning), and their partition counts read.
 * Called on the starting thread and, for the counts, the topic-watcher timer.
 */
final class TopicSetup {
  private TopicSetup() {}

  /** Creates the missing topics and checks them; returns their (common) partition count. */
  static int ensure(
      Admin admin, SchedulerConfig config, Topics topics, TopicReplication.Resolved replication) {
    int p = config.partitions();
    // Added after the others: made with the count tasks already has, so that it is co-partitioned.
    int dependencies = TopicAdmin.partitions(admin, topics.tasks()).orElse(p);
    List<TopicAdmin.Spec> specs =
        new java.util.ArrayList<>(
            List.of(
                TopicAdmin.Spec.of(topics.tasks(), p),
                TopicAdmin.Spec.of(topics.results(), p),
                TopicAdmin.Spec.of(topics.control(), p),
                TopicAdmin.Spec.of(topics.dependencies(), dependencies),
                TopicAdmin.Spec.of(topics.logs(), p),
                TopicAdmin.Spec.of(topics.schedulerDlt(), p),
                TopicAdmin.Spec.of(topics.uniqueReleases(), p),
                auditTopic(config, topics)));
    specs.addAll(TopicAdmin.operatorTopics(topics));
    specs.add(TopicAdmin.Spec.compacted(topics.rateLimits(), 1));
    TopicAdmin.ensure(admin, specs, replication);
    // Kafka Streams' changelogs and repartition topics of an earlier run, made with its settings
    ReplicationCheck.requireSafe(admin, streamsTopics(admin, config), replication);
    Map<String, Integer> counts = partitionCounts(admin, topics, 10);
    String refused = CoPartitioning.atStart(counts);
    if (refused != null) {
      throw new SchedulerException(refused);
    }
    return counts.get(topics.tasks());
  }

  /** The existing internal topics of this Kafka Streams application. */
  private static java.util.Set<String> streamsTopics(Admin admin, SchedulerConfig config) {
    try {
      String prefix = config.applicationId() + "-";
      return admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
          .filter(n -> n.startsWith(prefix))
          .filter(n -> n.endsWith("-changelog") || n.endsWith("-repartition"))
          .collect(java.util.stream.Collectors.toSet());
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new SchedulerException("cannot list the topics: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchedulerException("interrupted while listing the topics", e);
    }
  }

  /**
   * {@code <ns>.audit}: one partition (the API's actions are few, and one partition keeps them in
   * order), deleted after {@code audit-retention}. An existing topic is left as it is.
   */
  private static TopicAdmin.Spec auditTopic(SchedulerConfig config, Topics topics) {
    return new TopicAdmin.Spec(
        topics.audit(),
        1,
        (short) -1,
        Map.of(
            "cleanup.policy",
            "delete",
            "retention.ms",
            String.valueOf(config.api().auditRetention().toMillis())));
  }

  /**
   * Partition counts of the co-partitioned topics. A topic created a moment ago may not be in the
   * metadata yet (-1): describe again for up to 10 s before judging.
   */
  static Map<String, Integer> partitionCounts(Admin admin, Topics topics, int seconds) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      Map<String, Integer> counts = new java.util.LinkedHashMap<>();
      for (String t :
          List.of(topics.tasks(), topics.results(), topics.control(), topics.dependencies())) {
        counts.put(t, TopicAdmin.partitions(admin, t).orElse(-1));
      }
      if (!counts.containsValue(-1) || System.nanoTime() > deadline) {
        return counts;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return counts;
      }
    }
  }
}
