package io.tasklane.scheduler.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A prune reads a logged fire's outcome without decoding the rest of the record. */
class FireLogOutcomeTest {
  @Test
  void theOutcomeAloneSaysWhetherAFireIsFinishedWhateverComesBeforeIt() {
    for (FireRecord.Outcome outcome : FireRecord.Outcome.values()) {
      FireRecord f =
          fire(
              List.of(
                  new FireRecord.FireTask("t1", "t1", TaskState.SUCCEEDED),
                  new FireRecord.FireTask("t2", "t2", TaskState.DISPATCHED)),
              outcome,
              "why");
      assertThat(FireLogCodec.finished(WireCodec.encode(f)))
          .as(outcome.name())
          .isEqualTo(outcome.finished());
    }
  }

  @Test
  void anOutcomeQuotedInTheReasonIsNotTakenForTheFiresOwn() {
    FireRecord f =
        fire(
            List.of(new FireRecord.FireTask("t1", "t1", null)),
            FireRecord.Outcome.RUNNING,
            "\"outcome\":\"SUCCEEDED\"");
    assertThat(FireLogCodec.finished(WireCodec.encode(f))).isFalse();
  }

  @Test
  void anUnknownOutcomeFailsAsTheFullDecodeDoes() {
    byte[] unknown = "{\"fireId\":\"f1\",\"outcome\":\"LOST\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> FireLogCodec.finished(unknown))
        .isInstanceOf(WireFormatException.class);
  }

  @Test
  void aRecordWithoutAReadableOutcomeFailsAsTheFullDecodeDoes() {
    byte[] corrupt = "{\"fireId\":\"f1\",\"tasks\":[".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> FireLogCodec.finished(corrupt))
        .isInstanceOf(WireFormatException.class);
  }

  private static FireRecord fire(
      List<FireRecord.FireTask> tasks, FireRecord.Outcome outcome, String reason) {
    return new FireRecord(
        "f1", 1_000, FireRecord.Kind.CALENDAR, 0, null, 900, 100, tasks, outcome, reason);
  }
}
