package io.tasklane.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tasklane topics tail}: Tasklane's records as they pass on a topic. */
@Command(
    name = "topics",
    description = "Read Tasklane's topics.",
    subcommands = TopicsCommand.Tail.class,
    footerHeading = "%nExamples:%n",
    footer = {"  tasklane topics tail tasklane.tasks --bootstrap-servers kafka:9092"})
public final class TopicsCommand {

  /**
   * Reads every partition of a topic without a consumer group (nothing is committed), from the end
   * or the beginning, and prints each record: topic, partition, offset, timestamp, key, headers and
   * the JSON value pretty-printed (or, with {@code --json}, one JSON object per line). Runs on the
   * main thread until {@code --max} records or Ctrl-C.
   */
  @Command(
      name = "tail",
      description = "Print the records of a Tasklane topic as they arrive.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane topics tail tasklane.tasks --bootstrap-servers 127.0.0.1:9092",
        "  tasklane topics tail tasklane.handler.order.cancel.dlt --from-beginning",
        "  tasklane topics tail tasklane.results --command-config client.properties"
      })
  public static final class Tail implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "TOPIC", description = "e.g. tasklane.tasks, tasklane.control")
    String topic;

    @Option(names = "--from-beginning", description = "start at the oldest record kept")
    boolean fromBeginning;

    @Option(names = "--max", paramLabel = "N", description = "stop after N records")
    Long max;

    @Option(
        names = "--bootstrap-servers",
        paramLabel = "HOST:PORT,...",
        description = "Kafka brokers (env TASKLANE_BOOTSTRAP_SERVERS)")
    String bootstrapServers;

    @Option(
        names = "--command-config",
        paramLabel = "FILE",
        description = "Kafka client properties: security.protocol, sasl.*, ssl.*")
    Path commandConfig;

    @Override
    public Integer call() {
      if (max != null && max < 1) {
        throw new UsageException("--max " + max + " must be at least 1");
      }
      Session session = ((Session.Source) spec.root().userObject()).session();
      PrintWriter out = session.console().out();
      try (KafkaConsumer<String, byte[]> consumer = consumer(session.settings())) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic);
        if (infos == null || infos.isEmpty()) {
          throw new ApiException(404, "not-found", "topic " + topic + " does not exist");
        }
        List<TopicPartition> parts =
            infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
        consumer.assign(parts);
        if (fromBeginning) {
          consumer.seekToBeginning(parts);
        } else {
          consumer.seekToEnd(parts);
        }
        long printed = 0;
        while (max == null || printed < max) {
          for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
            print(out, r, session.json());
            if (max != null && ++printed >= max) {
              break;
            }
          }
          out.flush();
        }
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        throw new UnreachableException("no answer from Kafka at " + bootstrapOf(session), e);
      } catch (KafkaException e) {
        throw new UsageException("Kafka client: " + e.getMessage());
      }
      return Exit.OK;
    }

    private String bootstrapOf(Session s) {
      return bootstrapServers != null ? bootstrapServers : s.settings().bootstrapServers();
    }

    private KafkaConsumer<String, byte[]> consumer(CliSettings settings) {
      Properties p = new Properties();
      Path file = commandConfig != null ? commandConfig : settings.commandConfig();
      if (file != null) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          p.load(r);
        } catch (IOException e) {
          throw new UsageException("--command-config: cannot read " + file + ": " + e);
        }
      }
      String bootstrap = bootstrapServers != null ? bootstrapServers : settings.bootstrapServers();
      if (bootstrap != null) {
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      }
      if (p.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
        throw new UsageException(
            "no Kafka brokers: pass --bootstrap-servers, set TASKLANE_BOOTSTRAP_SERVERS, or write"
                + " bootstrap.servers in the --command-config file");
      }
      p.remove(ConsumerConfig.GROUP_ID_CONFIG); // assigned partitions, nothing committed
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
      p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tasklane-cli-tail");
      p.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
      return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }
  }

  /** One record for people (a header line, its headers, the value) or as one JSON line. */
  static void print(PrintWriter out, ConsumerRecord<String, byte[]> r, boolean json) {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("topic", r.topic());
    o.put("partition", r.partition());
    o.put("offset", r.offset());
    o.put("timestamp", r.timestamp());
    o.put("timestampIso", Instant.ofEpochMilli(r.timestamp()).toString());
    o.put("key", r.key());
    ObjectNode headers = o.putObject("headers");
    for (Header h : r.headers()) {
      headers.put(
          h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
    }
    JsonNode value = decode(r.value());
    o.set("value", value);
    if (json) {
      out.println(WireCodec.encodeToString(o));
      return;
    }
    out.printf(
        "── %s  partition %d  offset %d  %s  key %s%n",
        r.topic(), r.partition(), r.offset(), Instant.ofEpochMilli(r.timestamp()), r.key());
    headers
        .fields()
        .forEachRemaining(h -> out.println("   " + h.getKey() + ": " + h.getValue().asText()));
    if (r.value() == null) {
      out.println("(no value: a tombstone)");
    } else if (value.isTextual()) {
      out.println("(not JSON, " + r.value().length + " bytes) " + value.asText());
    } else {
      try {
        out.println(WireCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value));
      } catch (JsonProcessingException e) {
        out.println(value);
      }
    }
  }

  /** The value as JSON; a value that is not JSON becomes a text node, null stays JSON null. */
  static JsonNode decode(byte[] value) {
    if (value == null) {
      return WireCodec.mapper().nullNode();
    }
    String text = new String(value, StandardCharsets.UTF_8);
    try {
      return WireCodec.readTree(text);
    } catch (WireFormatException e) {
      return WireCodec.mapper().getNodeFactory().textNode(text);
    }
  }
}
