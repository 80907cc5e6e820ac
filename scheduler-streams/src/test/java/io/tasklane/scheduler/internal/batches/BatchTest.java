package io.tasklane.scheduler.internal.batches;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.BatchCounts;
import io.tasklane.core.BatchMemberDone;
import io.tasklane.core.BatchPart;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.Outcome;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches on the topology: the partition of a batch's key counts its members from its parts and
 * their ends from the notices their partitions send, and makes each callback exactly once — also
 * when parts and notices arrive twice, notices before their part, or a member ends again after a
 * retry; a part after the seal is dead-lettered.
 */
class BatchTest {
  private static final String P1 = UUID.randomUUID().toString();

  @TempDir Path dir;
  Driver d;

  /** The callback tasks the scheduler made, in order. */
  final List<TaskEnvelope> callbacks = new ArrayList<>();

  /** The notices it sent, as it sent them. */
  final List<BatchMemberDone> notices = new ArrayList<>();

  @BeforeEach
  void start() {
    d = new Driver(dir);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static TaskEnvelope member(String batch) {
    return Driver.task(T0).toBuilder().headers(Map.of(ReservedHeaders.BATCH, batch)).build();
  }

  private static TaskEnvelope callback(String handler) {
    return Driver.task(handler, T0, 3, null, List.of());
  }

  private void part(String batch, String partId, List<TaskEnvelope> members) {
    d.send(
        BatchPart.key(batch),
        BatchPart.members(batch, partId, members.stream().map(TaskEnvelope::id).toList(), d.now));
  }

  private void seal(String batch) {
    d.send(
        BatchPart.key(batch),
        BatchPart.seal(
            batch,
            UUID.randomUUID().toString(),
            callback("report.success"),
            callback("report.complete"),
            d.now));
  }

  /**
   * Reads what went to {@code <ns>.tasks} (the test driver has already fed it back in, as Kafka
   * would): notices are piped in once more (a resend), callbacks kept.
   */
  private void pump() {
    for (TestRecord<String, byte[]> r : d.read(d.topics.tasks())) {
      TaskTopicRecord rec = WireCodec.decodeTaskRecord(r.value());
      if (rec instanceof BatchMemberDone n) {
        assertThat(r.key()).isEqualTo(BatchPart.key(n.batch()));
        notices.add(n);
        d.send(r.key(), n);
      } else if (rec instanceof TaskEnvelope t
          && t.headers().containsKey(ReservedHeaders.BATCH_CALLBACK)) {
        callbacks.add(t);
      }
    }
  }

  private void succeed(TaskEnvelope t) {
    d.sendResult(TaskResult.succeeded(t.id(), 1, d.now, d.now, "w1"));
  }

  private void failForGood(TaskEnvelope t, int attempt) {
    d.sendResult(
        TaskResult.failed(
            t.id(), attempt, Outcome.PERMANENT_FAILURE, null, null, d.now, d.now, "w"));
  }

  private List<TaskEnvelope> members(String batch, int n) {
    List<TaskEnvelope> list = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      TaskEnvelope t = member(batch);
      list.add(t);
      d.send(t);
    }
    return list;
  }

  @Test
  void everyMemberSucceededMakesBothCallbacksOnceWithTheCounts() {
    List<TaskEnvelope> m = members("run-1", 3);
    part("run-1", P1, m);
    seal("run-1");
    m.forEach(this::succeed);
    pump();

    assertThat(callbacks)
        .extracting(TaskEnvelope::handler)
        .containsExactlyInAnyOrder("report.success", "report.complete");
    for (TaskEnvelope cb : callbacks) {
      String event = cb.handler().substring("report.".length());
      assertThat(cb.id()).isEqualTo(TaskIds.forBatchCallback("run-1", event));
      assertThat(cb.headers()).containsEntry(ReservedHeaders.BATCH_EVENT, event);
      assertThat(BatchCounts.from(cb.headers())).contains(new BatchCounts("run-1", 3, 3, 0, 0));
    }
    assertThat(d.metrics.get("batch.callback")).isEqualTo(2);

    // Every notice and part again (a scheduler that died before its commit): nothing new.
    notices.forEach(n -> d.send(BatchPart.key(n.batch()), n));
    part("run-1", P1, m);
    pump();
    assertThat(callbacks).hasSize(2);
    // The members' entries are gone once every member succeeded; the summary and parts stay.
    KeyValueStore<String, byte[]> store = d.driver.getKeyValueStore(Stores.BATCHES);
    List<String> keys = new ArrayList<>();
    store.all().forEachRemaining(kv -> keys.add(kv.key));
    assertThat(keys)
        .contains("s/run-1", "p/run-1/" + P1)
        .noneMatch(k -> k.startsWith("m/"))
        .as("both callbacks made: their templates are gone too")
        .noneMatch(k -> k.startsWith("c/"));

    // A part published again after that (a relay replaying its offsets) is a repeat, not late.
    part("run-1", P1, m);
    assertThat(d.metrics.get("batch.late")).isZero();
    assertThat(d.read(d.topics.schedulerDlt())).isEmpty();
  }

  @Test
  void completeCountsEveryEndAndSuccessWaitsForTheRetriedMember() {
    List<TaskEnvelope> m = members("run-2", 3);
    part("run-2", P1, m);
    seal("run-2");
    succeed(m.get(0));
    failForGood(m.get(1), 1);
    d.sendControl(m.get(2).routingKey(), CancelCommand.of(m.get(2).id(), "not needed", d.now));
    pump();

    assertThat(callbacks).extracting(TaskEnvelope::handler).containsExactly("report.complete");
    assertThat(BatchCounts.from(callbacks.get(0).headers()))
        .contains(new BatchCounts("run-2", 3, 1, 1, 1));

    // The dead member retried and succeeding does not make a second onComplete; the cancelled one
    // keeps onSuccess from ever being made.
    d.sendControl(m.get(1).id(), ControlCommand.RetryDead.of(m.get(1).id(), d.now));
    d.sendResult(TaskResult.succeeded(m.get(1).id(), 2, d.now, d.now, "w1"));
    pump();
    assertThat(callbacks).hasSize(1);
  }

  @Test
  void anEndedBatchIsDeletedWholeAfterTheRetentionAndAnUnsealedOneStays() {
    List<TaskEnvelope> m = members("ended-1", 2);
    part("ended-1", P1, m);
    seal("ended-1");
    succeed(m.get(0));
    failForGood(m.get(1), 1); // DEAD: the members' entries stay while it could still be retried
    List<TaskEnvelope> open = members("open-1", 1);
    part("open-1", UUID.randomUUID().toString(), open);
    succeed(open.get(0));
    pump();
    assertThat(callbacks).extracting(TaskEnvelope::handler).containsExactly("report.complete");
    assertThat(batchKeys())
        .contains("s/ended-1", "p/ended-1/" + P1, "s/open-1")
        .anyMatch(k -> k.startsWith("m/ended-1/"));

    d.advance(Duration.ofDays(7).minusMinutes(1).toMillis()); // the retention, less a minute
    assertThat(batchKeys()).contains("s/ended-1");

    d.advance(Duration.ofMinutes(2).toMillis());
    assertThat(batchKeys())
        .noneMatch(k -> k.contains("/ended-1"))
        .contains("s/open-1")
        .anyMatch(k -> k.startsWith("m/open-1/"));
  }

  private List<String> batchKeys() {
    KeyValueStore<String, byte[]> store = d.driver.getKeyValueStore(Stores.BATCHES);
    List<String> keys = new ArrayList<>();
    try (var it = store.all()) {
      it.forEachRemaining(kv -> keys.add(kv.key));
    }
    return keys;
  }

  @Test
  void aCallbackWithAnOrderingKeyIsFoundUnderItsKey() {
    List<TaskEnvelope> m = members("run-10", 1);
    part("run-10", P1, m);
    TaskEnvelope keyed = callback("report.complete").toBuilder().orderingKey("report-lane").build();
    d.send(
        BatchPart.key("run-10"),
        BatchPart.seal(
            "run-10", UUID.randomUUID().toString(), callback("report.success"), keyed, d.now));
    succeed(m.get(0));
    pump();
    assertThat(callbacks).hasSize(2);
    KeyValueStore<String, byte[]> store = d.driver.getKeyValueStore(Stores.BATCHES);
    BatchState s = BatchState.decode(store.get("s/run-10"));
    assertThat(s.completeTask).isEqualTo(TaskIds.forBatchCallback("run-10", "complete"));
    assertThat(s.completeTaskKey)
        .as("the API and the console link to it with this key")
        .isEqualTo("report-lane");
    assertThat(s.successTask).isEqualTo(TaskIds.forBatchCallback("run-10", "success"));
    assertThat(s.successTaskKey).as("a callback without a key is found under its id").isNull();
  }

  @Test
  void aMemberEndRewritesASmallSummaryWhateverTheCallbacksPayloads() {
    List<TaskEnvelope> m = members("run-8", 2);
    part("run-8", P1, m);
    TaskEnvelope big =
        callback("report.complete").toBuilder()
            .payload(WireCodec.readTree("\"" + "x".repeat(50_000) + "\""))
            .build();
    d.send(
        BatchPart.key("run-8"),
        BatchPart.seal("run-8", UUID.randomUUID().toString(), null, big, d.now));
    succeed(m.get(0));
    pump();
    KeyValueStore<String, byte[]> store = d.driver.getKeyValueStore(Stores.BATCHES);
    assertThat(store.get("s/run-8").length).as("the summary's bytes").isLessThan(1_000);
    assertThat(store.get("c/run-8/complete").length).isGreaterThan(50_000);

    succeed(m.get(1));
    pump();
    assertThat(callbacks).hasSize(1);
    assertThat(callbacks.get(0).payload().asText()).hasSize(50_000);
    assertThat(BatchCounts.from(callbacks.get(0).headers()))
        .contains(new BatchCounts("run-8", 2, 2, 0, 0));
  }

  @Test
  void aMemberRefusedAtAdmissionCountsDeadSoThatItsBatchCompletes() {
    List<TaskEnvelope> m = members("run-9", 1);
    TaskEnvelope refused =
        member("run-9").toBuilder()
            .dueAt(d.now + TaskLimits.MAX_DUE_AHEAD_MS + 86_400_000L) // beyond the due window
            .build();
    d.send(refused);
    part("run-9", P1, List.of(m.get(0), refused));
    seal("run-9");
    succeed(m.get(0));
    pump();

    assertThat(d.read(d.topics.schedulerDlt())).isNotEmpty(); // the refused member's record
    assertThat(callbacks).extracting(TaskEnvelope::handler).containsExactly("report.complete");
    assertThat(BatchCounts.from(callbacks.get(0).headers()))
        .contains(new BatchCounts("run-9", 2, 1, 1, 0));
  }

  @Test
  void anEndWaitingForAPartThatNeverComesIsForgottenAfterTheRetention() {
    // a member ended (e.g. retried by hand) after its batch was deleted: no part will come for it
    TaskEnvelope gone = members("gone-1", 1).get(0);
    succeed(gone);
    // a member of an open batch ended before its part, which then came
    TaskEnvelope early = members("open-2", 1).get(0);
    succeed(early);
    pump();
    assertThat(batchKeys())
        .contains("m/gone-1/" + gone.id(), "m/open-2/" + early.id())
        .anyMatch(k -> k.startsWith("e/") && k.endsWith("/gone-1/" + gone.id()));
    part("open-2", P1, List.of(early));
    pump();

    d.advance(Duration.ofDays(7).minusMinutes(1).toMillis()); // the retention, less a minute
    assertThat(batchKeys()).contains("m/gone-1/" + gone.id());

    d.advance(Duration.ofMinutes(2).toMillis());
    assertThat(batchKeys())
        .noneMatch(k -> k.contains("gone-1"))
        .noneMatch(k -> k.startsWith("e/"))
        .as("an end counted when its part came stays with its open batch")
        .contains("s/open-2", "m/open-2/" + early.id());
    KeyValueStore<String, byte[]> store = d.driver.getKeyValueStore(Stores.BATCHES);
    assertThat(BatchState.decode(store.get("s/open-2")).succeeded).isEqualTo(1);
  }

  @Test
  void aNoticeBeforeItsPartIsCountedWhenThePartArrives() {
    List<TaskEnvelope> m = members("run-3", 2);
    m.forEach(this::succeed);
    pump(); // the notices arrive first: the batch knows no member yet
    assertThat(callbacks).isEmpty();

    part("run-3", P1, m);
    seal("run-3");
    pump();
    assertThat(callbacks).hasSize(2);
    assertThat(BatchCounts.from(callbacks.get(0).headers()))
        .contains(new BatchCounts("run-3", 2, 2, 0, 0));
  }

  @Test
  void aPartAfterTheSealIsDeadLetteredAndAnEmptySealedBatchCompletesAtOnce() {
    seal("run-4");
    pump();
    assertThat(callbacks).hasSize(2);
    assertThat(BatchCounts.from(callbacks.get(0).headers()))
        .contains(new BatchCounts("run-4", 0, 0, 0, 0));

    List<TaskEnvelope> late = members("run-4", 1);
    part("run-4", UUID.randomUUID().toString(), late);
    assertThat(d.metrics.get("batch.late")).isEqualTo(1);
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).hasSize(1);
    assertThat(dlt.get(0).key()).isEqualTo(BatchPart.key("run-4"));
    succeed(late.get(0));
    pump();
    assertThat(callbacks).hasSize(2);
  }

  @Test
  void aPartWithTheWrongKeyOrAnInvalidIdIsDeadLettered() {
    d.send("run-5", BatchPart.members("run-5", UUID.randomUUID().toString(), List.of(), d.now));
    d.send(
        BatchPart.key("bad id"),
        BatchPart.members("bad id", UUID.randomUUID().toString(), List.of(), d.now));
    assertThat(d.read(d.topics.schedulerDlt())).hasSize(2);
  }
}
