package io.tasklane.scheduler.internal.batches;

import io.tasklane.core.BatchMemberDone;
import io.tasklane.core.BatchPart;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.SchedulerMetrics;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The batches whose key ({@code batch:<id>}) belongs to one stream task: counts members from the
 * batch's parts, counts their ends from {@link BatchMemberDone} notices, and makes each callback
 * task once ({@code onComplete} when every member is terminal, {@code onSuccess} when every member
 * SUCCEEDED, both only after the seal). The store ({@link Stores#BATCHES}) holds, under {@code
 * s/<id>}, the {@link BatchState}; under {@code c/<id>/<event>}, the seal's callback templates
 * (until both callbacks are made); under {@code p/<id>/<part>}, the parts applied (a part published
 * twice counts once); under {@code m/<id>/<task>}, each member's latest state ({@code P} pending,
 * {@code T}+state terminal, {@code E}+state+time ended before its part arrived, indexed under
 * {@code e/<time>/<id>/<task>} until the retention). The callback task goes to {@code <ns>.tasks}
 * with the same commit as the state that made it, under an id derived from the batch and the event,
 * so that it is made exactly once whichever process dies. Once every member SUCCEEDED, the members'
 * entries are deleted; the summary and the parts' entries stay. Used on the stream task's thread. A
 * batch that ended and has not changed for the retention is deleted whole, and a member end still
 * waiting for its part after the retention too ({@link #purgeNextSlice}, {@link BatchPurge}).
 */
public final class BatchBook {
  private static final byte PENDING = 'P';
  private static final byte TERMINAL = 'T';
  private static final byte EARLY = 'E';
  private static final String SUCCESS = "success";
  private static final String COMPLETE = "complete";

  private final KeyValueStore<String, byte[]> store;
  private final Outputs out;
  private final SchedulerMetrics metrics;

  private final BatchPurge purge;

  public BatchBook(ProcessorContext<?, ?> context, Outputs out, SchedulerMetrics metrics) {
    this.store = context.getStateStore(Stores.BATCHES);
    this.purge = new BatchPurge(store);
    this.out = out;
    this.metrics = metrics;
  }

  /** The store of a stream task's batches, not cached (its entries are small and written once). */
  public static org.apache.kafka.streams.state.StoreBuilder<KeyValueStore<String, byte[]>>
      storeBuilder() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(Stores.BATCHES),
            Serdes.String(),
            Serdes.ByteArray())
        .withCachingDisabled();
  }

  static String stateKey(String batch) {
    return "s/" + batch;
  }

  /**
   * Applies part {@code p} (validated, on its batch's partition): its members join the batch, a
   * seal seals it. Returns null when applied (or a repeat of an applied part), else why it was
   * refused: a part after the seal adds no member.
   */
  public String part(BatchPart p, long now) {
    BatchState s = stateOr(p.batch(), now);
    String partKey = "p/" + p.batch() + "/" + p.part();
    if (store.get(partKey) != null) {
      return null;
    }
    if (s.sealed) {
      s.lateParts++;
      put(s);
      metrics.count(SchedulerEvent.BATCH_LATE);
      return "batch '"
          + p.batch()
          + "' was sealed at "
          + Instant.ofEpochMilli(s.sealedAt)
          + "; a part written after the seal adds no member (its "
          + p.members().size()
          + " tasks run outside the batch)";
    }
    store.put(partKey, new byte[] {PENDING});
    for (String member : p.members()) {
      String key = memberKey(p.batch(), member);
      byte[] old = store.get(key);
      if (old == null) {
        store.put(key, new byte[] {PENDING});
        s.total++;
      } else if (old[0] == EARLY) {
        TaskState ended = TaskState.values()[old[1]];
        store.put(key, new byte[] {TERMINAL, old[1]});
        s.total++;
        s.add(ended, 1);
      }
    }
    if (p.seal()) {
      s.sealed = true;
      s.sealedAt = now;
      s.onSuccessHandler = keepTemplate(p.batch(), SUCCESS, p.onSuccess());
      s.onCompleteHandler = keepTemplate(p.batch(), COMPLETE, p.onComplete());
    }
    s.updatedAt = now;
    settle(s, now);
    return null;
  }

  /** Applies a member's end (validated, on its batch's partition). */
  public void memberDone(BatchMemberDone d, long now) {
    String key = memberKey(d.batch(), d.taskId());
    byte[] old = store.get(key);
    byte state = (byte) d.state().ordinal();
    if (old == null || old[0] == EARLY) {
      BatchState s = state(d.batch());
      if (s == null || s.succeededAt == null) {
        // Its part has not arrived yet (or it is no member): remembered, counted when it does.
        store.put(key, BatchPurge.early(EARLY, state, now));
        store.put(BatchPurge.earlyKey(now, d.batch(), d.taskId()), new byte[] {EARLY});
      }
      return;
    }
    if (old[0] == TERMINAL && old[1] == state) {
      return;
    }
    BatchState s = state(d.batch());
    if (s == null) {
      return;
    }
    if (old[0] == TERMINAL) {
      s.add(TaskState.values()[old[1]], -1);
    }
    s.add(d.state(), 1);
    store.put(key, new byte[] {TERMINAL, state});
    s.updatedAt = now;
    settle(s, now);
  }

  /** Makes the callbacks now due, then stores {@code s}. */
  private void settle(BatchState s, long now) {
    if (s.sealed && s.completedAt == null && s.terminal() >= s.total) {
      s.completedAt = now;
      TaskEnvelope template = template(s, COMPLETE);
      if (template != null) {
        s.completeMade(callback(s, template, COMPLETE, now));
      }
    }
    if (s.sealed && s.succeededAt == null && s.succeeded >= s.total) {
      s.succeededAt = now;
      TaskEnvelope template = template(s, SUCCESS);
      if (template != null) {
        s.successMade(callback(s, template, SUCCESS, now));
      }
      forgetMembers(s.batch);
      deletePrefix("c/" + s.batch + "/"); // both callbacks are made: no template is needed again
    }
    put(s);
  }

  /** Keeps a seal's callback template apart from the summary; returns its handler (or null). */
  private String keepTemplate(String batch, String event, TaskEnvelope template) {
    if (template == null) {
      return null;
    }
    store.put(templateKey(batch, event), WireCodec.encode(template));
    return template.handler();
  }

  /** The template of {@code event}'s callback, or null when the seal named none. */
  private TaskEnvelope template(BatchState s, String event) {
    TaskEnvelope inSummary = event.equals(SUCCESS) ? s.onSuccess : s.onComplete;
    if (inSummary != null) {
      return inSummary; // a summary written before the templates were kept apart
    }
    byte[] bytes = store.get(templateKey(s.batch, event));
    return bytes == null ? null : WireCodec.decode(bytes, TaskEnvelope.class);
  }

  private static String templateKey(String batch, String event) {
    return "c/" + batch + "/" + event;
  }

  /**
   * Sends batch {@code s}'s callback for {@code event}: {@code template} with the id derived from
   * the batch and the event, its delay counted from now, and the batch, event and counts in its
   * headers.
   */
  private TaskEnvelope callback(BatchState s, TaskEnvelope template, String event, long now) {
    Map<String, String> headers = new LinkedHashMap<>(template.headers());
    headers.put(ReservedHeaders.BATCH_CALLBACK, s.batch);
    headers.put(ReservedHeaders.BATCH_EVENT, event);
    headers.put(ReservedHeaders.BATCH_COUNTS, s.counts().format());
    long delay = Math.max(0, template.dueAt() - template.createdAt());
    TaskEnvelope task =
        template.toBuilder()
            .id(TaskIds.forBatchCallback(s.batch, event))
            .headers(headers)
            .createdAt(now)
            .dueAt(now + delay)
            .build();
    out.task(task, now);
    metrics.count(SchedulerEvent.BATCH_CALLBACK);
    return task;
  }

  private void forgetMembers(String batch) {
    // The parts' entries stay (one per 5,000 members) until the purge: a part published again
    // later (a relay replaying its offsets) is still known as a repeat, not refused as late.
    deletePrefix("m/" + batch + "/");
  }

  /**
   * Deletes what is kept past {@code retentionMs}: every batch that ended and has not changed for
   * it, and member ends still waiting for their part ({@link BatchPurge}). Called by a wall-clock
   * punctuation on the stream task's thread.
   */
  public void purgeNextSlice(long now, long retentionMs) {
    purge.nextSlice(now, retentionMs, EARLY);
  }

  private void deletePrefix(String prefix) {
    BatchPurge.deletePrefix(store, prefix);
  }

  private static String memberKey(String batch, String task) {
    return "m/" + batch + "/" + task;
  }

  private BatchState state(String batch) {
    byte[] bytes = store.get(stateKey(batch));
    return bytes == null ? null : BatchState.decode(bytes);
  }

  private BatchState stateOr(String batch, long now) {
    BatchState s = state(batch);
    return s != null ? s : BatchState.created(batch, now);
  }

  private void put(BatchState s) {
    store.put(stateKey(s.batch), s.encode());
  }
}
