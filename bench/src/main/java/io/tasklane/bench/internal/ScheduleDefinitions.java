package io.tasklane.bench.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.Topics;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The schedules of {@link ScheduleLoad}: built, sent to {@code <ns>.tasks} as definitions or
 * unschedules, and waited for on the scheduler's {@code schedule.defined} counter (a listing of
 * every schedule would load the scheduler being measured). On the bench thread.
 */
final class ScheduleDefinitions {
  private final BenchRun run;
  private final Topics topics;

  ScheduleDefinitions(BenchRun run, Topics topics) {
    this.run = run;
    this.topics = topics;
  }

  interface Period {
    String of(int i);
  }

  /** {@code n} fixed-rate schedules {@code prefix0…} of {@code handler}, version 1. */
  static List<ScheduleDefinition> every(String prefix, int n, String handler, Period p) {
    return every(prefix, n, handler, p, i -> null);
  }

  /** The instant schedule {@code i} fires from (epoch millis; null: from its definition on). */
  interface Start {
    Long of(int i);
  }

  /**
   * As {@link #every(String, int, String, Period)}, schedule {@code i} firing from {@code start}.
   */
  static List<ScheduleDefinition> every(
      String prefix, int n, String handler, Period p, Start start) {
    List<ScheduleDefinition> defs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      defs.add(
          ScheduleDefinition.builder()
              .name(prefix + i)
              .version(1)
              .handler(handler)
              .every(p.of(i))
              .startAt(start.of(i))
              .build());
    }
    return defs;
  }

  /**
   * Sends the definitions and waits until the scheduler counted {@code n} more {@code
   * schedule.defined} events; returns how many it counted.
   */
  long define(List<ScheduleDefinition> defs, int n) throws InterruptedException {
    long before = Math.max(0, defined());
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (ScheduleDefinition d : defs) {
        producer.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(d)));
      }
      producer.flush();
    }
    return await("defining", "defined", "schedule.defined", before, n);
  }

  /** The scheduler's {@code schedule.defined} events since it started, or -1. */
  long defined() {
    return counter("schedule.defined");
  }

  /**
   * Deletes the schedules (one unschedule each, version of the definition) and waits until the
   * scheduler counted as many more {@code schedule.deleted} events, so that the next part does not
   * queue behind the deletions; returns how many it counted.
   */
  long undefine(List<ScheduleDefinition> defs) throws InterruptedException {
    long before = Math.max(0, counter("schedule.deleted"));
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (ScheduleDefinition d : defs) {
        Unschedule u = Unschedule.of(d.name(), d.version(), System.currentTimeMillis());
        producer.send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(u)));
      }
      producer.flush();
    }
    return await("deleting", "deleted", "schedule.deleted", before, defs.size());
  }

  private long await(String doing, String done, String event, long before, int n)
      throws InterruptedException {
    AtomicLong count = new AtomicLong();
    long[] next = {0};
    run.progress(
        doing + " " + n + " schedules",
        () -> count.get() + "/" + n + " " + done,
        () -> {
          if (System.currentTimeMillis() >= next[0]) { // a scrape every 500 ms at most
            next[0] = System.currentTimeMillis() + 500;
            count.set(Math.max(0, counter(event) - before));
          }
          return count.get() >= n;
        },
        Duration.ofSeconds(Math.max(120, n / 100)));
    return count.get();
  }

  private long counter(String event) {
    return Probes.schedulerEvents(run.schedulerPort, event);
  }

  private KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, run.stack.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }
}
