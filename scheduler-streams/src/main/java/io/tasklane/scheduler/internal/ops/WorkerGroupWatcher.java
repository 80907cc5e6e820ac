package io.tasklane.scheduler.internal.ops;

import io.tasklane.core.Topics;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cache of each handler's live workers (the members of its consumer group {@code
 * <group-prefix>.<handler>}, read with Admin {@code describeConsumerGroups}) and of its topic's
 * partition count, refreshed by {@link #refresh} on the runtime's timer thread, never on a stream
 * thread. A handler is looked at once a fire asked for it; an answer older than {@code maxAge} (by
 * the {@link Clock}) counts as unknown, so a scheduler cut off from the cluster falls back to one
 * task instead of trusting a stale count. Thread-safe: stream threads read, the timer writes.
 */
public final class WorkerGroupWatcher implements HandlerWorkers {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerGroupWatcher.class);

  private record Seen(int consumers, int partitions, long at) {}

  private final Admin admin;
  private final Topics topics;
  private final String groupPrefix;
  private final Clock clock;
  private final long maxAgeMs;
  private final Map<String, Seen> seen = new ConcurrentHashMap<>();
  private final Set<String> wanted = ConcurrentHashMap.newKeySet();
  private final Predicate<String> holds;

  /**
   * @param groupPrefix the workers' consumer group prefix ({@code <namespace>-worker} by default)
   * @param maxAge how long an answer stays valid
   */
  public WorkerGroupWatcher(
      Admin admin, Topics topics, String groupPrefix, Clock clock, Duration maxAge) {
    this(admin, topics, groupPrefix, clock, maxAge, handler -> false);
  }

  /**
   * @param holds whether every live worker of a handler holds dispatches sent ahead (the {@link
   *     WorkerRegistry}'s heartbeats)
   */
  public WorkerGroupWatcher(
      Admin admin,
      Topics topics,
      String groupPrefix,
      Clock clock,
      Duration maxAge,
      Predicate<String> holds) {
    this.holds = holds;
    this.admin = admin;
    this.topics = topics;
    this.groupPrefix = groupPrefix;
    this.clock = clock;
    this.maxAgeMs = maxAge.toMillis();
  }

  @Override
  public OptionalInt liveConsumers(String handler) {
    Seen s = fresh(handler);
    return s == null || s.consumers() < 0 ? OptionalInt.empty() : OptionalInt.of(s.consumers());
  }

  @Override
  public OptionalInt partitions(String handler) {
    Seen s = fresh(handler);
    return s == null || s.partitions() <= 0 ? OptionalInt.empty() : OptionalInt.of(s.partitions());
  }

  @Override
  public boolean holdDispatches(String handler) {
    return holds.test(handler);
  }

  private Seen fresh(String handler) {
    wanted.add(handler);
    Seen s = seen.get(handler);
    return s == null || clock.millis() - s.at() > maxAgeMs ? null : s;
  }

  /** The consumer group of {@code handler}'s workers. */
  String group(String handler) {
    return groupPrefix + "." + handler;
  }

  /**
   * Reads every wanted handler's group and topic. Never throws (a timer calls it): a group that
   * cannot be read leaves the handler's last answer to age; a topic that cannot be described (not
   * created yet) leaves its partition count unknown.
   */
  public void refresh() {
    for (String handler : Set.copyOf(wanted)) {
      try {
        int consumers = consumers(handler);
        int partitions;
        try {
          partitions = partitionsOf(topics.handler(handler));
        } catch (java.util.concurrent.ExecutionException
            | java.util.concurrent.TimeoutException e) {
          partitions = 0;
        }
        seen.put(handler, new Seen(consumers, partitions, clock.millis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        LOG.warn("could not read the workers of handler {}: {}", handler, e.toString());
      }
    }
  }

  private int consumers(String handler) throws Exception {
    String group = group(handler);
    try {
      ConsumerGroupDescription d =
          admin.describeConsumerGroups(Set.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
      return d == null ? 0 : d.members().size();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
        return 0; // newer brokers: a group no worker ever joined does not exist
      }
      throw e;
    }
  }

  private int partitionsOf(String topic) throws Exception {
    Map<String, TopicDescription> d =
        admin.describeTopics(Set.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS);
    TopicDescription t = d.get(topic);
    Collection<?> p = t == null ? null : t.partitions();
    return p == null ? 0 : p.size();
  }
}
