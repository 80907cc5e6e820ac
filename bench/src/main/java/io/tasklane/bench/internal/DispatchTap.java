package io.tasklane.bench.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Watches one topic from its end, on its own thread, and keeps by record key (a task's id unless it
 * has an ordering key) the producer timestamp of its first record: on a handler topic when the
 * scheduler dispatched the task, on {@code <ns>.tasks} when the relay sent it. Readers may call
 * {@link #sentAt} from any thread.
 */
final class DispatchTap implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private volatile boolean running = true;
  private final Map<String, Long> sent = new ConcurrentHashMap<>();

  DispatchTap(String bootstrap, String topic) {
    this.consumer = EndConsumers.atEnd(bootstrap, topic);
    this.thread = new Thread(this::loop, "bench-dispatch-tap");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      try {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          if (r.key() != null) {
            sent.putIfAbsent(r.key(), r.timestamp());
          }
        }
      } catch (Throwable t) {
        if (running) {
          System.err.println("bench dispatch tap: " + t);
        }
      }
    }
    consumer.close(Duration.ofSeconds(2));
  }

  /** When the scheduler first dispatched the task with key {@code id}, or null. */
  Long sentAt(String id) {
    return sent.get(id);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    thread.join(5000);
  }
}
