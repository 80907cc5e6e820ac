package io.tasklane.scheduler.internal;

import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import java.util.ArrayList;
import java.util.List;
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
final class TopicWatcher implements HandlerTopics {
  private static final Logger LOG = LoggerFactory.getLogger(TopicWatcher.class);

  private final Admin admin;
  private final Topics topics;
  private final int dltPartitions;
  private volatile Set<String> known = Set.of();

  TopicWatcher(Admin admin, Topics topics, int dltPartitions) {
    this.admin = admin;
    this.topics = topics;
    this.dltPartitions = dltPartitions;
  }

  @Override
  public boolean exists(String topic) {
    return known.contains(topic);
  }

  /** The handlers whose dispatch topic exists, as last listed, by name. */
  java.util.SortedSet<String> handlers() {
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
  void refresh() {
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
        TopicAdmin.ensure(admin, missing);
        missing.forEach(s -> LOG.info("created dead-letter topic {}", s.name()));
        names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      }
      String prefix = topics.namespace() + ".handler.";
      known =
          names.stream()
              .filter(n -> n.startsWith(prefix))
              .collect(java.util.stream.Collectors.toUnmodifiableSet());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      LOG.warn("could not refresh the handler topics; keeping the last list: {}", t.toString());
    }
  }
}
