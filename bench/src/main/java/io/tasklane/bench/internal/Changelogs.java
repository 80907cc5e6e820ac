package io.tasklane.bench.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * What the scheduler's state stores wrote to their changelog topics, per store: the sum of the
 * changelog partitions' end offsets (records, under the scheduler's default at-least-once: no
 * transaction markers among them) and of their log sizes on the brokers (bytes of one replica: the
 * replicas' sizes summed and divided by the replication factor). Two {@link #sample samples} around
 * a scenario give its records and bytes per task. The log sizes include the batch headers, as the
 * broker stores them; a compaction between the samples would lower them (the active segment, where
 * a scenario's records are, is never compacted). Used on the run's thread.
 */
final class Changelogs {
  private static final String SUFFIX = "-changelog";
  private static final long TIMEOUT_S = 30;

  /** A store's changelog: records and bytes so far. */
  record Sample(long records, long bytes) {}

  private Changelogs() {}

  /**
   * The changelogs of the Kafka Streams application {@code applicationId} now, by store name (the
   * topic name without the application id and {@code -changelog}), in name order.
   */
  static Map<String, Sample> sample(Admin admin, String applicationId)
      throws InterruptedException, ExecutionException, TimeoutException {
    String prefix = applicationId + "-";
    List<String> topics =
        admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS).stream()
            .filter(t -> t.startsWith(prefix) && t.endsWith(SUFFIX))
            .sorted()
            .toList();
    Map<String, TopicDescription> described =
        admin.describeTopics(topics).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS);
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    Map<String, Integer> replication = new HashMap<>();
    described.forEach(
        (t, d) -> {
          d.partitions()
              .forEach(p -> latest.put(new TopicPartition(t, p.partition()), OffsetSpec.latest()));
          replication.put(
              t, d.partitions().isEmpty() ? 1 : d.partitions().get(0).replicas().size());
        });
    Map<String, Long> records = new HashMap<>();
    admin
        .listOffsets(latest)
        .all()
        .get(TIMEOUT_S, TimeUnit.SECONDS)
        .forEach((tp, info) -> records.merge(tp.topic(), info.offset(), Long::sum));
    Map<String, Long> bytes = new HashMap<>();
    List<Integer> brokers = new ArrayList<>();
    for (Node n : admin.describeCluster().nodes().get(TIMEOUT_S, TimeUnit.SECONDS)) {
      brokers.add(n.id());
    }
    Map<Integer, Map<String, LogDirDescription>> dirs =
        admin.describeLogDirs(brokers).allDescriptions().get(TIMEOUT_S, TimeUnit.SECONDS);
    for (Map<String, LogDirDescription> byDir : dirs.values()) {
      for (LogDirDescription dir : byDir.values()) {
        for (Map.Entry<TopicPartition, ReplicaInfo> r : dir.replicaInfos().entrySet()) {
          if (described.containsKey(r.getKey().topic())) {
            bytes.merge(r.getKey().topic(), r.getValue().size(), Long::sum);
          }
        }
      }
    }
    Map<String, Sample> out = new TreeMap<>();
    for (String t : topics) {
      String store = t.substring(prefix.length(), t.length() - SUFFIX.length());
      out.put(
          store,
          new Sample(
              records.getOrDefault(t, 0L),
              bytes.getOrDefault(t, 0L) / Math.max(1, replication.getOrDefault(t, 1))));
    }
    return out;
  }

  /**
   * Per task between {@code before} and {@code after}, by store, plus {@code total}: records
   * ({@code [0]}) and bytes ({@code [1]}); stores that wrote nothing are left out.
   */
  static Map<String, double[]> perTask(
      Map<String, Sample> before, Map<String, Sample> after, long tasks) {
    Map<String, double[]> per = new TreeMap<>();
    double records = 0;
    double bytes = 0;
    for (Map.Entry<String, Sample> e : after.entrySet()) {
      Sample b = before.getOrDefault(e.getKey(), new Sample(0, 0));
      long r = e.getValue().records() - b.records();
      long s = e.getValue().bytes() - b.bytes();
      if (r > 0 && tasks > 0) {
        per.put(e.getKey(), new double[] {r / (double) tasks, s / (double) tasks});
        records += r / (double) tasks;
        bytes += s / (double) tasks;
      }
    }
    per.put("total", new double[] {records, bytes});
    return per;
  }
}
