package io.tasklane.testkit;

import io.tasklane.testkit.internal.ClusterNode;
import io.tasklane.testkit.internal.Ports;
import io.tasklane.testkit.internal.Processes;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A real multi-node KRaft Kafka cluster on loopback for tests and tools that must see what a
 * cluster does: {@code n} combined broker+controller nodes (ids 1..n) in their own JVMs, an n-voter
 * controller quorum, and Kafka's own topic defaults (replication factor 1, min ISR 1), so that only
 * the apps make their topics safe. Single nodes can be killed (-9), stopped and restarted, and the
 * cluster tells which node leads a topic's partitions or the quorum.
 *
 * <p>Its JVMs exit with the JVM that started them unless started detached ({@code bin/stack up
 * --brokers 3}); {@link #close()} stops them and deletes the directory, and {@link #attach} finds
 * them again from another JVM. Used by one test thread at a time.
 */
public final class KafkaCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final String CLUSTER_FILE = "cluster.properties";

  private final Path dir;
  private final String clusterId;
  private final List<ClusterNode> nodes;
  private final String voters;
  private final String heap;
  private final Map<String, String> settings;
  private final boolean owned;

  private KafkaCluster(
      Path dir,
      String clusterId,
      List<ClusterNode> nodes,
      String heap,
      Map<String, String> settings,
      boolean owned) {
    this.dir = dir;
    this.clusterId = clusterId;
    this.nodes = nodes;
    this.heap = heap;
    this.settings = Map.copyOf(settings);
    this.owned = owned;
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
    return start(dir, size, heap, true, false, Map.of(), START_TIMEOUT);
  }

  /**
   * As {@link #start(Path, int, String)}, with: {@code fastStart} (C1-only node JVMs: a faster
   * start, a lower peak), {@code detached} (the nodes outlive this JVM: own session, no parent
   * watch; {@link #close()} still stops them, {@link #attach} finds them again), {@code
   * brokerSettings} written over every node's server.properties (e.g. {@code
   * broker.session.timeout.ms}), and how long the start may take. {@code dir} must not hold another
   * cluster's data: a cluster is formatted afresh by every start.
   */
  public static KafkaCluster start(
      Path dir,
      int size,
      String heap,
      boolean fastStart,
      boolean detached,
      Map<String, String> brokerSettings,
      Duration timeout) {
    if (size < 2 || size > 5) {
      throw new IllegalArgumentException("KafkaCluster size must be 2 to 5, got " + size);
    }
    Path abs = dir.toAbsolutePath();
    List<ClusterNode> nodes = new ArrayList<>();
    for (int id = 1; id <= size; id++) {
      nodes.add(
          new ClusterNode(
              id,
              Ports.pickFree(),
              Ports.pickFree(),
              abs.resolve("node-" + id),
              detached,
              fastStart));
    }
    KafkaCluster cluster =
        new KafkaCluster(abs, Uuid.randomUuid().toString(), nodes, heap, brokerSettings, true);
    try {
      Files.createDirectories(abs);
      cluster.writeClusterFile(detached, fastStart);
      for (ClusterNode n : cluster.nodes) {
        n.start(cluster.clusterId, cluster.voters, heap, cluster.settings);
      }
      cluster.awaitBrokers(size, timeout);
      cluster.probe(timeout);
      return cluster;
    } catch (IOException | RuntimeException e) {
      String tails = cluster.tails();
      cluster.close();
      throw new LocalStackException("Kafka cluster failed to start: " + e + "\n" + tails, e);
    }
  }

  /**
   * The cluster that {@link #start} left in {@code dir} (in this JVM or another one, e.g. {@code
   * bin/stack up --brokers 3}): its nodes are found by their pid files. Its {@link #close()} does
   * nothing; kill, stop and restart act on the real nodes (a restarted node keeps the cluster's
   * detached setting).
   *
   * @throws LocalStackException if {@code dir} holds no cluster
   */
  public static KafkaCluster attach(Path dir) {
    Path abs = dir.toAbsolutePath();
    Path file = abs.resolve(CLUSTER_FILE);
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
      boolean detached = Boolean.parseBoolean(p.getProperty("detached"));
      boolean fastStart = Boolean.parseBoolean(p.getProperty("fastStart", "true"));
      int size = Integer.parseInt(p.getProperty("size"));
      List<ClusterNode> nodes = new ArrayList<>();
      for (int id = 1; id <= size; id++) {
        String[] ports = p.getProperty("node." + id).split(",");
        nodes.add(
            ClusterNode.attach(
                id,
                Integer.parseInt(ports[0]),
                Integer.parseInt(ports[1]),
                abs.resolve("node-" + id),
                detached,
                fastStart));
      }
      Map<String, String> settings = new HashMap<>();
      for (String key : p.stringPropertyNames()) {
        if (key.startsWith("setting.")) {
          settings.put(key.substring("setting.".length()), p.getProperty(key));
        }
      }
      return new KafkaCluster(
          abs, p.getProperty("clusterId"), nodes, p.getProperty("heap"), settings, false);
    } catch (IOException | RuntimeException e) {
      throw new LocalStackException("no Kafka cluster in " + abs + ": " + e, e);
    }
  }

  /** True if {@code dir} holds the file of a cluster {@link #start} made. */
  public static boolean isClusterDir(Path dir) {
    return Files.isRegularFile(dir.resolve(CLUSTER_FILE));
  }

  private void writeClusterFile(boolean detached, boolean fastStart) throws IOException {
    Properties p = new Properties();
    p.setProperty("clusterId", clusterId);
    p.setProperty("size", Integer.toString(nodes.size()));
    p.setProperty("heap", heap);
    p.setProperty("detached", Boolean.toString(detached));
    p.setProperty("fastStart", Boolean.toString(fastStart));
    for (ClusterNode n : nodes) {
      p.setProperty("node." + n.id(), n.port() + "," + n.controllerPort());
    }
    settings.forEach((k, v) -> p.setProperty("setting." + k, v));
    try (Writer out = Files.newBufferedWriter(dir.resolve(CLUSTER_FILE), StandardCharsets.UTF_8)) {
      p.store(out, "tasklane testkit Kafka cluster");
    }
  }

  /** The directory of the cluster (a {@code node-<id>} dir per node, with its log). */
  public Path dir() {
    return dir;
  }

  /** The PLAINTEXT port of node {@code id} on 127.0.0.1. */
  public int port(int id) {
    return node(id).port();
  }

  /** The pid of node {@code id}'s JVM, or -1 while it is down. */
  public long pid(int id) {
    return node(id).pid();
  }

  /** The log file of node {@code id}. */
  public Path log(int id) {
    return node(id).log();
  }

  /** The token on node {@code id}'s command line that identifies it (its server.properties). */
  public String marker(int id) {
    return node(id).marker();
  }

  /** The broker settings written over every node's own (empty: Kafka's defaults). */
  public Map<String, String> brokerSettings() {
    return settings;
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
      n.start(clusterId, voters, heap, settings);
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

  /**
   * Descriptions (replicas, in-sync replicas, leaders) of {@code topics}. A topic created a moment
   * ago may not be in the metadata of the broker that answers yet: asked again for up to 15 s.
   */
  public Map<String, TopicDescription> describe(Collection<String> topics) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    try (Admin admin = admin()) {
      while (true) {
        try {
          return admin.describeTopics(topics).allTopicNames().get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
              || System.nanoTime() > deadline) {
            throw new LocalStackException("cannot describe " + topics, e);
          }
          Processes.pause(200);
        }
      }
    } catch (TimeoutException e) {
      throw new LocalStackException("cannot describe " + topics, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalStackException("interrupted", e);
    }
  }

  /**
   * Stops every node and deletes the cluster's directory; does nothing for an {@link #attach
   * attached} cluster.
   */
  @Override
  public void close() {
    if (!owned) {
      return;
    }
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

  private void probe(Duration timeout) {
    String probe = "tasklane-probe-" + UUID.randomUUID();
    long deadline = System.nanoTime() + timeout.toNanos();
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
