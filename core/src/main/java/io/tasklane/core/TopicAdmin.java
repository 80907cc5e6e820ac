package io.tasklane.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates Tasklane's topics when they are missing. Every app calls it at start-up for the topics it
 * reads or writes; creation is idempotent, so apps may race. Call from a start-up thread (blocks up
 * to 30 s).
 */
public final class TopicAdmin {
  /** Partitions of {@code tasks}, {@code results} and {@code control} unless configured. */
  public static final int DEFAULT_PARTITIONS = 6;

  private TopicAdmin() {}

  /** A topic to ensure: name, partitions, replication (-1 = broker default), configs. */
  public record Spec(String name, int partitions, short replication, Map<String, String> configs) {
    public static Spec of(String name, int partitions) {
      return new Spec(name, partitions, (short) -1, Map.of());
    }

    public static Spec compacted(String name, int partitions) {
      return new Spec(name, partitions, (short) -1, Map.of("cleanup.policy", "compact"));
    }
  }

  /** Creates each missing topic; existing topics are left as they are. */
  public static void ensure(Admin admin, List<Spec> specs) {
    List<NewTopic> topics = new ArrayList<>();
    for (Spec s : specs) {
      topics.add(
          new NewTopic(s.name(), Optional.of(s.partitions()), Optional.of(s.replication()))
              .configs(s.configs()));
    }
    var futures = admin.createTopics(topics).values();
    for (var entry : futures.entrySet()) {
      try {
        entry.getValue().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new TasklaneException(
              "cannot create topic " + entry.getKey() + ": " + e.getCause().getMessage(), e);
        }
      } catch (TimeoutException e) {
        throw new TasklaneException(
            "creating topic " + entry.getKey() + " timed out after 30 s", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TasklaneException("interrupted while creating topic " + entry.getKey(), e);
      }
    }
  }

  /** Partition count of {@code topic}, or empty when it does not exist. */
  public static Optional<Integer> partitions(Admin admin, String topic) {
    try {
      var d = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS);
      return Optional.of(d.get(topic).partitions().size());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw new TasklaneException("cannot describe topic " + topic + ": " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new TasklaneException("describing topic " + topic + " timed out after 30 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TasklaneException("interrupted while describing " + topic, e);
    }
  }
}
