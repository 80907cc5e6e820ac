package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Shard;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stored form of a task record keeps every component, reads the earlier JSON form, refuses what
 * it cannot read by type, and is a fraction of the JSON.
 */
class TaskRecordCodecTest {
  static TaskEnvelope envelope() {
    return new TaskEnvelope(
        1,
        "6f1c1b9e-3a55-4e61-9c43-0e6f5c0f5a11",
        "mail.send",
        "user-42",
        "order-7",
        WireCodec.readTree("{\"to\":\"ann@example.com\",\"n\":[1,2.5,null,true],\"ü\":\"é\"}"),
        1_800_000_000_000L,
        7,
        30_000,
        RetryPolicy.exponential(Duration.ofSeconds(2), Duration.ofMinutes(5)),
        List.of("0b6e8a56-5c1d-4f0a-8d2a-3b3f7f8c9d10"),
        Map.of("traceparent", "00-abc-def-01", "x-tenant", "t1"),
        1_799_999_999_000L,
        new Source("tasklane_outbox", 123_456_789L),
        new Shard(3, 8),
        TaskOptions.builder().waitTimeoutMs(60_000L).build());
  }

  /** A record with every component set to something other than its default. */
  static TaskRecord full() {
    TaskRecord.Edit e = TaskRecord.empty().edit();
    e.task = envelope();
    e.state = TaskState.DISPATCHED;
    e.attempt = 3;
    e.failures = 2;
    e.snoozes = 1;
    e.dueAt = 1_800_000_001_000L;
    e.deadline = 1_800_000_031_000L;
    e.timer(1_800_000_031_000L, TimerKind.DEADLINE);
    e.lastError = new ErrorInfo("java.io.IOException", "connection reset", "at a.b(C.java:1)");
    e.reason = "attempts exhausted";
    e.history.add(new AttemptEntry(1, 1L, 2L, "FAILED", "IOException: x", "worker-1"));
    e.history.add(new AttemptEntry(3, 5L, 0L, null, null, null));
    e.waitingOn.add("a1");
    e.waiters.add(new Waiter("w1", "rk1"));
    e.probes.add("p1");
    e.updatedAt = 1_800_000_002_000L;
    e.finishedAt = 1_800_000_003_000L;
    e.duplicatesRefused = 4;
    e.lastRefusedDuplicate =
        new RefusedDuplicate(9L, 8L, new Source("t", 1), "mail.send", 1_800_000_000_500L);
    e.waitTimedOutAt = 1_800_000_004_000L;
    e.nonce = "n0nce";
    return e.build();
  }

  @Test
  void everyComponentSurvivesTheRoundTrip() {
    TaskRecord r = full();
    assertThat(TaskRecordCodec.decode(TaskRecordCodec.encode(r))).isEqualTo(r);
    TaskRecord empty = TaskRecord.empty();
    assertThat(TaskRecordCodec.decode(TaskRecordCodec.encode(empty))).isEqualTo(empty);
    TaskRecord.Edit negative = empty.edit();
    negative.timer(-5, TimerKind.DUE);
    negative.dueAt = Long.MIN_VALUE;
    negative.deadline = Long.MAX_VALUE;
    TaskRecord n = negative.build();
    assertThat(TaskRecordCodec.decode(TaskRecordCodec.encode(n))).isEqualTo(n);
  }

  @Test
  void aNewComponentFailsHereUntilTheCodecWritesIt() {
    // Each count is what TaskRecordCodec writes; a new component needs a new format byte.
    assertThat(TaskRecord.class.getRecordComponents()).hasSize(21);
    assertThat(TaskEnvelope.class.getRecordComponents()).hasSize(16);
    assertThat(AttemptEntry.class.getRecordComponents()).hasSize(6);
    assertThat(Waiter.class.getRecordComponents()).hasSize(2);
    assertThat(ErrorInfo.class.getRecordComponents()).hasSize(3);
    assertThat(Shard.class.getRecordComponents()).hasSize(2);
  }

  @Test
  void inspectionToolsReadTheEnvelopeAndStateOfEitherForm() {
    TaskRecord r = full();
    for (byte[] value : List.of(TaskRecordCodec.encode(r), WireCodec.encode(r))) {
      assertThat(io.tasklane.scheduler.TaskStoreRecords.envelope(value)).isEqualTo(r.task());
      assertThat(io.tasklane.scheduler.TaskStoreRecords.state(value)).isEqualTo(r.state());
    }
    assertThat(io.tasklane.scheduler.TaskStoreRecords.envelope(null)).isNull();
    assertThat(
            io.tasklane.scheduler.TaskStoreRecords.envelope(
                TaskRecordCodec.encode(TaskRecord.empty())))
        .isNull();
  }

  @Test
  void aRecordOfTheEarlierJsonFormIsRead() {
    TaskRecord r = full();
    assertThat(TaskRecordCodec.decode(WireCodec.encode(r))).isEqualTo(r);
  }

  @Test
  void theStoredFormIsHalfTheJsonOrLess() {
    TaskRecord r = full();
    assertThat(TaskRecordCodec.encode(r).length * 2)
        .isLessThanOrEqualTo(WireCodec.encode(r).length);
    assertThat(TaskRecordCodec.encode(r)[0]).isEqualTo(TaskRecordCodec.FORMAT);
  }

  @Test
  void whatCannotBeReadIsRefusedAsAWireFormatError() {
    byte[] bytes = TaskRecordCodec.encode(full());
    for (int cut : new int[] {1, 2, bytes.length / 2, bytes.length - 1}) {
      assertThatThrownBy(() -> TaskRecordCodec.decode(Arrays.copyOf(bytes, cut)))
          .as("cut at " + cut)
          .isInstanceOf(WireFormatException.class)
          .hasMessageContaining("corrupt task record");
    }
    byte[] newer = bytes.clone();
    newer[0] = TaskRecordCodec.FORMAT + 1;
    assertThatThrownBy(() -> TaskRecordCodec.decode(newer))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("unknown format " + (TaskRecordCodec.FORMAT + 1));
    assertThatThrownBy(() -> TaskRecordCodec.decode(new byte[0]))
        .isInstanceOf(WireFormatException.class);
  }

  /**
   * {@link #full()} and the same record without options as format 2 wrote them (the retry policy
   * and the source as JSON), one hex line each.
   */
  static List<byte[]> formatTwo() throws IOException {
    try (InputStream in =
        TaskRecordCodecTest.class.getResourceAsStream("/task-record-format-2.hex")) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII)
          .lines()
          .map(HexFormat.of()::parseHex)
          .toList();
    }
  }

  static TaskRecord withoutOptions() {
    TaskRecord.Edit e = full().edit();
    e.task = envelope().toBuilder().options(null).build();
    return e.build();
  }

  @Test
  void aRecordOfFormatTwoIsRead() throws IOException {
    List<byte[]> two = formatTwo();
    assertThat(two.get(0)[0]).isEqualTo(TaskRecordCodec.FORMAT_2);
    assertThat(TaskRecordCodec.decode(two.get(0))).isEqualTo(full());
    assertThat(TaskRecordCodec.decode(two.get(1))).isEqualTo(withoutOptions());
    assertThat(TaskRecordCodec.encode(full()).length).isLessThan(two.get(0).length);
  }

  @Test
  void everyRetryPolicyAndAMissingSourceSurviveTheRoundTrip() {
    for (RetryPolicy policy :
        List.of(
            RetryPolicy.sidekiq(),
            RetryPolicy.fixed(Duration.ofSeconds(1), Duration.ofMinutes(2)),
            RetryPolicy.exponential(Duration.ofMillis(5), Duration.ofHours(1)))) {
      TaskRecord.Edit e = full().edit();
      e.task = envelope().toBuilder().backoff(policy).source(null).build();
      TaskRecord r = e.build();
      assertThat(TaskRecordCodec.decode(TaskRecordCodec.encode(r))).isEqualTo(r);
    }
  }

  @Test
  void aRecordOfFormatOneIsReadWithoutOptions() throws IOException {
    TaskRecord r = withoutOptions();
    byte[] two = formatTwo().get(1);
    // Format 1 is format 2 without the envelope's last value, the options (one 0 byte for null).
    TaskRecord.Edit noTask = r.edit();
    noTask.task = null;
    int envelopeEnd = 2 + two.length - TaskRecordCodec.encode(noTask.build()).length;
    assertThat(two[envelopeEnd - 1]).isZero();
    byte[] one = new byte[two.length - 1];
    System.arraycopy(two, 0, one, 0, envelopeEnd - 1);
    System.arraycopy(two, envelopeEnd, one, envelopeEnd - 1, two.length - envelopeEnd);
    one[0] = TaskRecordCodec.FORMAT_1;
    assertThat(TaskRecordCodec.decode(one)).isEqualTo(r);
    assertThat(TaskRecordCodec.decode(two)).isEqualTo(r);
    assertThat(TaskRecordCodec.decode(TaskRecordCodec.encode(full())).task().options())
        .isEqualTo(envelope().options());
  }
}
