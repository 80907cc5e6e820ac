package io.tasklane.chaos.internal;

import io.tasklane.testkit.KafkaCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The end-of-run check of a three-broker run: every topic of the namespace and of the schedulers'
 * Kafka Streams application has three replicas and {@code min.insync.replicas=2}, although the
 * brokers were left at Kafka's defaults (one replica, min ISR 1). Chaos thread.
 */
public final class ReplicatedTopics {
  private ReplicatedTopics() {}

  /** The topics of {@code namespace} that are not at 3 replicas / min ISR 2, each with why. */
  public static List<String> unsafe(KafkaCluster kafka, String namespace) throws Exception {
    List<String> out = new ArrayList<>();
    try (Admin admin = kafka.admin()) {
      List<String> ours =
          admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
              .filter(n -> n.startsWith(namespace + ".") || n.startsWith(namespace + "-scheduler-"))
              .sorted()
              .toList();
      var described = kafka.describe(ours);
      var resources =
          ours.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
      var configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
      for (String t : ours) {
        TopicDescription d = described.get(t);
        int replicas = d.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
        Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, t));
        String minIsr = c.get("min.insync.replicas").value();
        if (replicas != 3 || !"2".equals(minIsr)) {
          out.add(t + " (" + replicas + " replicas, min ISR " + minIsr + ")");
        }
      }
      if (ours.isEmpty()) {
        out.add("no topic of namespace " + namespace + " found");
      }
    }
    return out;
  }
}
