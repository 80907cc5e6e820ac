package io.tasklane.relay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.BatchMemberDone;
import io.tasklane.core.BatchPart;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A batch member whose row the relay dead-letters never becomes a task, so it would never end and
 * its batch would never complete: for such a row (a task row whose headers name a batch) the relay
 * also sends the {@link BatchMemberDone} that counts the member DEAD, keyed by the batch's key, in
 * the same batch as the dead letter. Stateless; called on the engine thread.
 */
final class RefusedMembers {
  private RefusedMembers() {}

  /**
   * The notice for refused {@code row}, or null when it is no task row of a batch (or its headers
   * cannot be read: then there is no batch to tell).
   */
  static ProducerRecord<String, byte[]> notice(String tasksTopic, OutboxRow row, long now) {
    if (OutboxKind.ofColumn(row.kind()).orElse(null) != OutboxKind.TASK
        || row.taskId() == null
        || row.headers() == null) {
      return null;
    }
    String batch;
    try {
      JsonNode b = WireCodec.readTree(row.headers()).get(ReservedHeaders.BATCH);
      batch = b == null || !b.isTextual() ? null : b.asText();
    } catch (RuntimeException e) {
      return null;
    }
    if (batch == null || !BatchPart.ID.matcher(batch).matches()) {
      return null;
    }
    BatchMemberDone done = BatchMemberDone.of(batch, row.taskId(), TaskState.DEAD, now);
    return new ProducerRecord<>(tasksTopic, BatchPart.key(batch), WireCodec.encode(done));
  }
}
