package io.tasklane.testkit;

import io.tasklane.testkit.internal.ClusterNode;
import io.tasklane.testkit.internal.Ports;
import io.tasklane.testkit.internal.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * A real multi-node KRaft Kafka cluster on loopback for tests and tools that must see what a
 * cluster does: {@code n} combined broker+controller nodes (ids 1..n) in their own JVMs, an n-voter
 * controller quorum, and Kafka's own topic defaults (replication factor 1, min ISR 1), so that only
 * the apps make their topics safe. Single nodes can be killed (-9), stopped and restarted, and the
 * cluster tells which node leads a topic's partitions or the quorum.
 *
 * <p>Its JVMs exit with the JVM that started them; {@link #close()} stops them and deletes the
 * directory. Used by one test thread at a time.
 */
public final class KafkaCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Path dir;
  private final String clusterId = Uuid.randomUuid().toString();
  private final List<ClusterNode> nodes = new ArrayList<>();
  private final String voters;
  private final String heap;

  private KafkaCluster(Path dir, int size, String heap) {
    this.dir = dir;
    this.heap = heap;
    for (int id = 1; id <= size; id++) {
      nodes.add(new ClusterNode(id, Ports.pickFree(), Ports.pickFree(), dir.resolve("node-" + id)));
    }
    this.voters =
        nodes.stream()
            .map(n -> n.id() + "@127.0.0.1:" + n.controllerPort())
            .collect(Collectors.joining(","));
  }

  /**
   * Starts {@code size} nodes (2 to 5) under {@code dir} with a heap of {@code heap} each (e.g.
   * {@code 384m}) and waits until every one is registered and a topic replicated on all of them can
   * be made; the nodes are stopped again when that fails.
   */
  public static KafkaCluster start(Path dir, int size, String heap) {
    if (size < 2 || size > 5) {
      throw new IllegalArgumentException("KafkaCluster size must be 2 to 5, got " + size);
    }
    KafkaCluster cluster = new KafkaCluster(dir.toAbsolutePath(), size, heap);
    try {
      for (ClusterNode n : cluster.nodes) {
        n.start(cluster.clusterId, cluster.voters, heap);
      }
      cluster.awaitBrokers(size, START_TIMEOUT);
      cluster.probe();
      return cluster;
    } catch (IOException | RuntimeException e) {
      String tails = cluster.tails();
      cluster.close();
      throw new LocalStackException("Kafka cluster failed to start: " + e + "\n" + tails, e);
    }
  }

  /** The bootstrap servers of every node. */
  public String bootstrapServers() {
    return nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
  }

  /** Node ids, 1..n. */
  public List<Integer> ids() {
    return nodes.stream().map(ClusterNode::id).toList();
  }

  /** An admin client for this cluster with short timeouts; the caller closes it. */
  public Admin admin() {
    Map<String, Object> p = new HashMap<>();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
    p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
    return Admin.create(p);
  }

  /** Kills node {@code id} with SIGKILL, as a crash. */
  public void kill(int id) {
    node(id).kill9();
  }

  /** Stops node {@code id} cleanly (SIGTERM: a controlled shutdown moves its leaderships). */
  public void stop(int id) {
    node(id).stop(Duration.ofSeconds(30));
  }

  /** Starts node {@code id} again and waits until it is registered with the controller. */
  public void restart(int id) {
    ClusterNode n = node(id);
    if (n.alive()) {
      throw new IllegalStateException("node " + id + " is running");
    }
    try {
      n.start(clusterId, voters, heap);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitBrokers((int) nodes.stream().filter(ClusterNode::alive).count(), START_TIMEOUT);
  }

  /** True while node {@code id}'s JVM runs. */
  public boolean alive(int id) {
    return node(id).alive();
  }

  /** The node leading the most partitions of {@code topic} (the lowest id on a tie). */
  public int leaderOfMostPartitions(String topic) {
    Map<Integer, Long> byLeader =
        describe(List.of(topic)).get(topic).partitions().stream()
            .map(TopicPartitionInfo::leader)
            .filter(l -> l != null && !l.isEmpty())
            .collect(Collectors.groupingBy(Node::id, Collectors.counting()));
    return byLeader.entrySet().stream()
        .max(
            Comparator.<Map.Entry<Integer, Long>>comparingLong(Map.Entry::getValue)
                .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
        .orElseThrow(() -> new LocalStackException("topic " + topic + " has no leader", null))
        .getKey();
  }

  /** The node leading the controller quorum. */
  public int activeController() {
    try (Admin admin = admin()) {
      return admin.describeMetadataQuorum().quorumInfo().get(15, TimeUnit.SECONDS).leaderId();
    } catch (ExecutionException | TimeoutException e) {
      throw new LocalStackException("cannot describe the controller quorum", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalStackException("interrupted", e);
    }
  }

  /**
   * Waits until every partition of every topic (internal ones included) has all its replicas in
   * sync, as after a restarted node caught up; throws when {@code timeout} passes first.
   */
  public void awaitInSync(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String behind = "?";
    while (System.nanoTime() < deadline) {
      try (Admin admin = admin()) {
        var names =
            admin
                .listTopics(
                    new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                .names()
                .get(15, TimeUnit.SECONDS);
        behind =
            admin.describeTopics(names).allTopicNames().get(15, TimeUnit.SECONDS).values().stream()
                .filter(
                    d ->
                        d.partitions().stream().anyMatch(p -> p.isr().size() < p.replicas().size()))
                .map(TopicDescription::name)
                .sorted()
                .collect(Collectors.joining(", "));
        if (behind.isEmpty()) {
          return;
        }
      } catch (ExecutionException | TimeoutException e) {
        behind = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalStackException("interrupted", e);
      }
      Processes.pause(500);
    }
    throw new LocalStackException("replicas not in sync after " + timeout + ": " + behind, null);
  }

  /** Descriptions (replicas, in-sync replicas, leaders) of {@code topics}. */
  public Map<String, TopicDescription> describe(Collection<String> topics) {
    try (Admin admin = admin()) {
      return admin.describeTopics(topics).allTopicNames().get(15, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new LocalStackException("cannot describe " + topics, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalStackException("interrupted", e);
    }
  }

  /** Stops every node and deletes the cluster's directory. */
  @Override
  public void close() {
    nodes.parallelStream().forEach(n -> n.stop(Duration.ofSeconds(10)));
    try (Stream<Path> files = Files.exists(dir) ? Files.walk(dir) : Stream.empty()) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: the directory is the caller's temporary one
    }
  }

  private ClusterNode node(int id) {
    if (id < 1 || id > nodes.size()) {
      throw new IllegalArgumentException("node id must be 1 to " + nodes.size() + ", got " + id);
    }
    return nodes.get(id - 1);
  }

  private void awaitBrokers(int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    try (Admin admin = admin()) {
      while (System.nanoTime() < deadline) {
        try {
          if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= count) {
            return;
          }
        } catch (ExecutionException | TimeoutException e) {
          last = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new LocalStackException("interrupted", e);
        }
        Processes.pause(200);
      }
    }
    throw new LocalStackException(
        "the cluster did not register " + count + " brokers in " + timeout, last);
  }

  private void probe() {
    String probe = "tasklane-probe-" + UUID.randomUUID();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    try (Admin admin = admin()) {
      while (true) {
        try {
          admin
              .createTopics(List.of(new NewTopic(probe, 1, (short) nodes.size())))
              .all()
              .get(15, TimeUnit.SECONDS);
          admin.deleteTopics(List.of(probe)).all().get(15, TimeUnit.SECONDS);
          return;
        } catch (ExecutionException | TimeoutException e) {
          if (System.nanoTime() > deadline) {
            throw new LocalStackException("probe topic on " + nodes.size() + " brokers failed", e);
          }
          if (e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException) {
            return;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new LocalStackException("interrupted", e);
        }
        Processes.pause(200);
      }
    }
  }

  private String tails() {
    StringBuilder b = new StringBuilder();
    for (ClusterNode n : nodes) {
      b.append("--- node ").append(n.id()).append(":\n").append(n.tail(15)).append('\n');
    }
    return b.toString();
  }
}
