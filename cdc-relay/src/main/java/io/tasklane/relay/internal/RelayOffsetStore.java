package io.tasklane.relay.internal;

import io.debezium.embedded.KafkaConnectUtil;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.KafkaOffsetBackingStore;
import org.apache.kafka.connect.util.SharedTopicAdmin;

/**
 * Kafka Connect's Kafka offset store that also closes the admin client it uses. Debezium's default
 * wiring ({@code KafkaConnectUtil.kafkaOffsetBackingStore}) never closes its {@code
 * SharedTopicAdmin}, which leaked an admin client (and its thread) per leadership term. Public with
 * a no-argument constructor because Debezium instantiates {@code offset.storage} reflectively.
 */
public final class RelayOffsetStore extends KafkaOffsetBackingStore {
  private final AtomicReference<SharedTopicAdmin> admin;

  public RelayOffsetStore() {
    this(new AtomicReference<>());
  }

  private RelayOffsetStore(AtomicReference<SharedTopicAdmin> admin) {
    super(
        () -> admin.get().get(),
        () -> "tasklane-relay",
        KafkaConnectUtil.converterForOffsetStore());
    this.admin = admin;
  }

  @Override
  public void configure(WorkerConfig config) {
    Map<String, Object> props = new HashMap<>(config.originals());
    props.put(CommonClientConfigs.CLIENT_ID_CONFIG, "tasklane-relay-offsets-admin");
    admin.set(new SharedTopicAdmin(props));
    super.configure(config);
  }

  @Override
  public void stop() {
    try {
      super.stop();
    } finally {
      SharedTopicAdmin a = admin.getAndSet(null);
      if (a != null) {
        a.close(Duration.ofSeconds(5));
      }
    }
  }
}
