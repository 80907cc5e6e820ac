package io.tasklane.scheduler.internal.ops;

import java.util.List;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;

/**
 * The scheduler's one Kafka producer as the HTTP API and the audit log write with it: tasks,
 * commands, handler settings and audit records. It cannot close the producer; the scheduler's
 * runtime owns and closes it. Thread-safe (the producer is); called on Micronaut's event-loop and
 * blocking threads and on the bulk jobs' thread.
 */
public final class RecordSender {
  private final Producer<String, byte[]> producer;

  public RecordSender(Producer<String, byte[]> producer) {
    this.producer = producer;
  }

  /** Sends {@code record}; the future completes when the broker has it. */
  public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record) {
    return producer.send(record);
  }

  /** Sends {@code record} and calls {@code done} on the producer's I/O thread. */
  public void send(ProducerRecord<String, byte[]> record, Callback done) {
    producer.send(record, done);
  }

  /** Waits until every record sent so far is acknowledged or failed. */
  public void flush() {
    producer.flush();
  }

  /** The partitions of {@code topic}, fetching its metadata when the producer has none. */
  public List<PartitionInfo> partitionsFor(String topic) {
    return producer.partitionsFor(topic);
  }
}
