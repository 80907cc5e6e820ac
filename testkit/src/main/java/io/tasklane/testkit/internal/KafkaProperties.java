package io.tasklane.testkit.internal;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

/** Writes the broker's server.properties (KRaft, one combined node). Stateless; any thread. */
final class KafkaProperties {

  private KafkaProperties() {}

  /** Writes server.properties; with {@code security} (nullable) the client listener is SASL_SSL. */
  static void write(StackLayout layout, int port, int controllerPort, KafkaSecurity security)
      throws IOException {
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", "1");
    p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.setProperty(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.setProperty("log.dirs", layout.kafkaDataDir().toString());
    p.setProperty("num.partitions", "3");
    p.setProperty("default.replication.factor", "1");
    p.setProperty("min.insync.replicas", "1");
    p.setProperty("auto.create.topics.enable", "false");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    // lets a client ask for a session shorter than the broker's default lowest (6 s), as the
    // failover benchmark does: a kill -9'd member is noticed after its own session timeout
    p.setProperty("group.min.session.timeout.ms", "1000");
    p.setProperty("offsets.topic.replication.factor", "1");
    p.setProperty("offsets.topic.num.partitions", "10");
    p.setProperty("transaction.state.log.replication.factor", "1");
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("transaction.state.log.num.partitions", "10");
    p.setProperty("share.coordinator.state.topic.replication.factor", "1");
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("num.network.threads", "2");
    p.setProperty("num.io.threads", "4");
    p.setProperty("log.retention.hours", "24");
    if (security != null) {
      security.applyTo(p, port, controllerPort);
    }
    try (Writer out = Files.newBufferedWriter(layout.kafkaProperties(), StandardCharsets.UTF_8)) {
      p.store(out, "written by tasklane testkit; rewritten on every start");
    }
    // It may hold the broker's secrets: owner-only.
    Files.setPosixFilePermissions(
        layout.kafkaProperties(), PosixFilePermissions.fromString("rw-------"));
  }
}
