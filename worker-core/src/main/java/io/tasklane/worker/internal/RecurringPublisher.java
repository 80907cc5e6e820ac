package io.tasklane.worker.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the app's code-defined schedules at start ({@link RecurringPlan}): reads the app's
 * manifest, sends the new, changed and disabled definitions to {@code <ns>.tasks} keyed by name and
 * waits for each acknowledgement, then writes the new manifest. A crash between the two only makes
 * the next start publish the same definitions again with a newer version. Start-up thread only.
 */
final class RecurringPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(RecurringPublisher.class);

  private final WorkerConfig config;
  private final RecurringStore store;
  private final Clock clock;

  RecurringPublisher(WorkerConfig config, Clock clock) {
    this.config = config;
    this.store = new RecurringStore(config);
    this.clock = clock;
  }

  /**
   * With code-defined schedules: ensures the manifest topic and publishes, failing start-up with a
   * {@link WorkerException} naming the topic when Kafka refuses. Without any: only when the app has
   * a manifest that is readable (the topic exists and may be read) are its schedules disabled;
   * anything else is logged and start-up goes on, so a worker without {@code @Recurring} needs no
   * new ACL.
   */
  Optional<RecurringPlan> publish(List<ScheduleDefinition> code) {
    String app = config.recurringApp();
    if (code.isEmpty()) {
      try (Admin admin = KafkaClients.admin(config)) {
        if (!exists(admin, store.topic())) {
          return Optional.empty();
        }
        return Optional.of(run(code, app));
      } catch (RuntimeException e) {
        LOG.info(
            "no @Recurring schedules here, and {} could not be checked for earlier ones ({})",
            store.topic(),
            e.toString());
        return Optional.empty();
      }
    }
    try (Admin admin = KafkaClients.admin(config)) {
      store.ensure(admin);
      if (!exists(admin, config.topics().tasks())) {
        throw new WorkerException(
            config.topics().tasks()
                + " does not exist, so the @Recurring schedules cannot be published; start the"
                + " relay or the scheduler first (they create it with its partition count)");
      }
    } catch (WorkerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new WorkerException("cannot create " + store.topic() + ": " + e.getMessage(), e);
    }
    return Optional.of(run(code, app));
  }

  private RecurringPlan run(List<ScheduleDefinition> code, String app) {
    RecurringManifest previous = store.read(app);
    RecurringPlan plan =
        RecurringPlan.of(code, previous, app, config.recurringBuild(), clock.millis());
    if (plan.olderBuild()) {
      LOG.warn(
          "recurring.build {} is older than build {} that last published app {}'s schedules: this"
              + " deployment publishes none",
          config.recurringBuild(),
          previous.build(),
          app);
      return plan;
    }
    if (plan.publish().isEmpty() && plan.manifest() == null) {
      LOG.info("code-defined schedules of {} unchanged: {}", app, names(code));
      return plan;
    }
    try (KafkaProducer<byte[], byte[]> producer = KafkaClients.producer(config)) {
      for (ScheduleDefinition d : plan.publish()) {
        RecurringStore.send(
            producer,
            new ProducerRecord<>(
                config.topics().tasks(),
                d.name().getBytes(StandardCharsets.UTF_8),
                WireCodec.encode(d)));
        if (plan.disabled().contains(d.name())) {
          LOG.warn(
              "schedule {} was defined by @Recurring in app {} and is no longer in its code:"
                  + " disabled (version {}); delete it with an unschedule of version >= {}, or"
                  + " define it again",
              d.name(),
              app,
              d.version(),
              d.version());
        } else {
          LOG.info(
              "schedule {} published from @Recurring (handler {}, version {})",
              d.name(),
              d.handler(),
              d.version());
        }
      }
      if (plan.manifest() != null) {
        store.write(producer, plan.manifest());
      }
    }
    return plan;
  }

  private static List<String> names(List<ScheduleDefinition> code) {
    return code.stream().map(ScheduleDefinition::name).toList();
  }

  private static boolean exists(Admin admin, String topic) {
    try {
      return admin
          .listTopics()
          .names()
          .get(RecurringStore.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .contains(topic);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerException("interrupted while listing topics", e);
    } catch (Exception e) {
      throw new WorkerException("cannot list topics: " + e, e);
    }
  }
}
