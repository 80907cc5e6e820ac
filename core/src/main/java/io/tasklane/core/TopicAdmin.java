package io.tasklane.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Tasklane's topics when they are missing. Every app calls it at start-up for the topics it
 * reads or writes; creation is idempotent, so apps may race. A topic is created with the
 * replication factor and {@code min.insync.replicas} of the app's {@link TopicReplication}, which
 * by default follow the cluster (three replicas and a min ISR of 2 on three or more brokers); every
 * topic named is then checked, and one that a single broker loss can empty refuses the start
 * ({@link ReplicationCheck#requireSafe}). Every topic gets {@code max.message.bytes} of at least
 * {@link #MAX_MESSAGE_BYTES}, so the largest valid task fits; an existing topic with a smaller
 * limit is raised, or a warning is logged when that is refused. Call from a start-up thread (blocks
 * up to 30 s per step).
 */
public final class TopicAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

  /** Partitions of {@code tasks}, {@code results} and {@code control} unless configured. */
  public static final int DEFAULT_PARTITIONS = 6;

  /** The topic setting this class enforces. */
  public static final String MAX_MESSAGE_BYTES_CONFIG = "max.message.bytes";

  /**
   * {@code max.message.bytes} of every Tasklane topic and {@code max.request.size} of Tasklane's
   * producers: {@link TaskLimits#MAX_RECORD_BYTES} plus 64 KiB for batch framing and the dispatch
   * wrapper (1,376,256 bytes).
   */
  public static final int MAX_MESSAGE_BYTES = TaskLimits.MAX_RECORD_BYTES + 64 * 1024;

  private TopicAdmin() {}

  /**
   * A topic to ensure: name, partitions, replication (-1 = the app's {@link TopicReplication}),
   * configs ({@code max.message.bytes} defaults to {@link #MAX_MESSAGE_BYTES}, {@code
   * min.insync.replicas} to the app's).
   */
  public record Spec(String name, int partitions, short replication, Map<String, String> configs) {
    public static Spec of(String name, int partitions) {
      return new Spec(name, partitions, (short) -1, Map.of());
    }

    public static Spec compacted(String name, int partitions) {
      return new Spec(name, partitions, (short) -1, Map.of("cleanup.policy", "compact"));
    }

    Map<String, String> withMessageLimit() {
      Map<String, String> c = new HashMap<>(configs);
      c.putIfAbsent(MAX_MESSAGE_BYTES_CONFIG, String.valueOf(MAX_MESSAGE_BYTES));
      return c;
    }

    NewTopic newTopic(TopicReplication.Resolved r) {
      short factor = replication > 0 ? replication : r.factor();
      Map<String, String> c = withMessageLimit();
      c.putIfAbsent(
          ReplicationCheck.MIN_ISR_CONFIG, String.valueOf(Math.min(r.minInsyncReplicas(), factor)));
      return new NewTopic(name, Optional.of(partitions), Optional.of(factor)).configs(c);
    }
  }

  /** How long an interrupt stays on {@code <ns>.interrupts}: workers read it from its end. */
  public static final long INTERRUPTS_RETENTION_MS = 3_600_000;

  /**
   * The operator topics both the scheduler and the workers ensure: {@code <ns>.interrupts} (one
   * partition, kept an hour), and the compacted {@code <ns>.workers} and {@code
   * <ns>.handler-settings} (one partition each).
   */
  public static List<Spec> operatorTopics(Topics topics) {
    return List.of(
        new Spec(
            topics.interrupts(),
            1,
            (short) -1,
            Map.of("retention.ms", String.valueOf(INTERRUPTS_RETENTION_MS))),
        Spec.compacted(topics.workers(), 1),
        Spec.compacted(topics.handlerSettings(), 1));
  }

  /** {@link #ensure(Admin, List, TopicReplication)} with {@link TopicReplication#DEFAULT}. */
  public static void ensure(Admin admin, List<Spec> specs) {
    ensure(admin, specs, TopicReplication.DEFAULT);
  }

  /**
   * Creates each missing topic with {@code replication} resolved against the cluster, then refuses
   * (an {@link UnsafeReplicationException}) when one of {@code specs}' topics is unsafe; of
   * existing topics only a {@code max.message.bytes} below the spec's is raised (a refusal, e.g. no
   * ALTER_CONFIGS right, is logged as a warning).
   */
  public static void ensure(Admin admin, List<Spec> specs, TopicReplication replication) {
    ensure(admin, specs, ReplicationCheck.resolve(admin, replication));
  }

  /** {@link #ensure(Admin, List, TopicReplication)} with the replication already resolved. */
  public static void ensure(Admin admin, List<Spec> specs, TopicReplication.Resolved replication) {
    List<NewTopic> topics = new ArrayList<>();
    Map<String, Spec> byName = new HashMap<>();
    for (Spec s : specs) {
      byName.put(s.name(), s);
      topics.add(s.newTopic(replication));
    }
    List<Spec> existing = new ArrayList<>();
    var futures = admin.createTopics(topics).values();
    for (var entry : futures.entrySet()) {
      try {
        entry.getValue().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof InvalidReplicationFactorException) {
          throw new TasklaneException(
              "cannot create topic "
                  + entry.getKey()
                  + " with "
                  + byName.get(entry.getKey()).newTopic(replication).replicationFactor()
                  + " replicas: the cluster has "
                  + replication.brokers()
                  + " live broker(s); start the missing brokers or set "
                  + TopicReplication.FACTOR_KEY
                  + " to at most "
                  + replication.brokers()
                  + " ("
                  + e.getCause().getMessage()
                  + ")",
              e);
        }
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new TasklaneException(
              "cannot create topic " + entry.getKey() + ": " + e.getCause().getMessage(), e);
        }
        existing.add(byName.get(entry.getKey()));
      } catch (TimeoutException e) {
        throw new TasklaneException(
            "creating topic " + entry.getKey() + " timed out after 30 s", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TasklaneException("interrupted while creating topic " + entry.getKey(), e);
      }
    }
    if (!existing.isEmpty()) {
      raiseMessageLimits(admin, existing);
      ReplicationCheck.requireSafe(admin, existing.stream().map(Spec::name).toList(), replication);
    }
  }

  private static void raiseMessageLimits(Admin admin, List<Spec> specs) {
    Map<ConfigResource, List<String>> resources = new HashMap<>();
    specs.forEach(s -> resources.put(topic(s.name()), List.of(MAX_MESSAGE_BYTES_CONFIG)));
    Map<ConfigResource, org.apache.kafka.clients.admin.Config> current;
    try {
      current = admin.describeConfigs(resources.keySet()).all().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn(
          "cannot check {} of {}: {}; records up to {} bytes may be refused",
          MAX_MESSAGE_BYTES_CONFIG,
          resources.keySet(),
          e.getCause() == null ? e : e.getCause(),
          MAX_MESSAGE_BYTES);
      return;
    }
    for (Spec s : specs) {
      long wanted = Long.parseLong(s.withMessageLimit().get(MAX_MESSAGE_BYTES_CONFIG));
      ConfigEntry entry = current.get(topic(s.name())).get(MAX_MESSAGE_BYTES_CONFIG);
      long have = entry == null || entry.value() == null ? -1 : Long.parseLong(entry.value());
      if (have >= wanted) {
        continue;
      }
      var op =
          new AlterConfigOp(
              new ConfigEntry(MAX_MESSAGE_BYTES_CONFIG, String.valueOf(wanted)),
              AlterConfigOp.OpType.SET);
      try {
        admin
            .incrementalAlterConfigs(Map.of(topic(s.name()), List.of(op)))
            .all()
            .get(30, TimeUnit.SECONDS);
        LOG.info(
            "raised {} of topic {} from {} to {}",
            MAX_MESSAGE_BYTES_CONFIG,
            s.name(),
            have,
            wanted);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException e) {
        LOG.warn(
            "topic {} has {}={} below the {} Tasklane needs, and raising it failed: {}; larger"
                + " records will be refused (set it by hand)",
            s.name(),
            MAX_MESSAGE_BYTES_CONFIG,
            have,
            wanted,
            e.getCause() == null ? e : e.getCause());
      }
    }
  }

  private static ConfigResource topic(String name) {
    return new ConfigResource(ConfigResource.Type.TOPIC, name);
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
