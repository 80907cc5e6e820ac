package io.tasklane.scheduler.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stored forms of a schedule's state and of its logged fires keep every component, read the
 * earlier JSON form, refuse what they cannot read by type, and are smaller than the JSON.
 */
class ScheduleStateCodecTest {
  static ScheduleDefinition definition() {
    return ScheduleDefinition.builder()
        .name("nightly.report")
        .version(7)
        .handler("report.render")
        .payload(WireCodec.readTree("{\"region\":\"eu\",\"n\":[1,2.5,null,true],\"ü\":\"é\"}"))
        .every("30s")
        .overlap(ScheduleDefinition.Overlap.QUEUE)
        .children(List.of("nightly.mail"))
        .origin("code:reports")
        .build();
  }

  /** A fire with every component set to something other than its default. */
  static FireRecord fire(FireRecord.Outcome outcome) {
    return new FireRecord(
        "nightly.report@1800000000000",
        1_800_000_000_000L,
        FireRecord.Kind.CHILD,
        2,
        "parent-fire-1",
        1_800_000_000_150L,
        150,
        List.of(
            new FireRecord.FireTask("t1", "r1", TaskState.SUCCEEDED),
            new FireRecord.FireTask("t2", "r2", null)),
        outcome,
        "waiting for t2 ✓");
  }

  static ScheduleState state() {
    return new ScheduleState(
        definition(),
        7,
        false,
        1_800_000_030_000L,
        1_800_000_000_000L,
        List.of(fire(FireRecord.Outcome.RUNNING), fire(FireRecord.Outcome.QUEUED)),
        "nightly.report@1800000030000",
        42);
  }

  @Test
  void everyComponentOfAStateSurvivesTheRoundTrip() {
    ScheduleState s = state();
    assertThat(ScheduleStateCodec.decode(ScheduleStateCodec.encode(s))).isEqualTo(s);
    ScheduleState deleted = new ScheduleState(null, 9, true, -1, -1);
    assertThat(ScheduleStateCodec.decode(ScheduleStateCodec.encode(deleted))).isEqualTo(deleted);
  }

  @Test
  void everyComponentOfAFireSurvivesTheRoundTrip() {
    for (FireRecord.Outcome o : FireRecord.Outcome.values()) {
      FireRecord f = fire(o);
      assertThat(FireLogCodec.decode(FireLogCodec.encode(f))).as(o.name()).isEqualTo(f);
    }
    FireRecord bare =
        FireRecord.noTask(
            "f", 5, FireRecord.Kind.CALENDAR, 0, null, FireRecord.Outcome.SKIPPED, null);
    assertThat(FireLogCodec.decode(FireLogCodec.encode(bare))).isEqualTo(bare);
  }

  @Test
  void aNewComponentOrEnumConstantFailsHereUntilTheCodecsWriteIt() {
    // a new component needs a new format byte (the earlier ones still read); the enums are stored
    // by position, so a constant may only be added at the end
    assertThat(ScheduleState.class.getRecordComponents()).hasSize(8);
    assertThat(FireRecord.class.getRecordComponents()).hasSize(10);
    assertThat(FireRecord.FireTask.class.getRecordComponents()).hasSize(3);
    assertThat(Arrays.stream(FireRecord.Outcome.values()).map(Enum::name))
        .containsExactly(
            "RUNNING", "QUEUED", "SUCCEEDED", "FAILED", "DEAD", "CANCELLED", "SKIPPED", "MISFIRED");
    assertThat(Arrays.stream(FireRecord.Kind.values()).map(Enum::name))
        .containsExactly("CALENDAR", "TRIGGER", "CHILD");
  }

  @Test
  void aStateAndAFireOfTheEarlierJsonFormAreRead() {
    ScheduleState s = state();
    assertThat(ScheduleStateCodec.decode(WireCodec.encode(s))).isEqualTo(s);
    FireRecord f = fire(FireRecord.Outcome.DEAD);
    assertThat(FireLogCodec.decode(WireCodec.encode(f))).isEqualTo(f);
    assertThat(FireLogCodec.finished(WireCodec.encode(f))).isTrue();
  }

  @Test
  void theStoredFormsAreSmallerThanTheJson() {
    assertThat(ScheduleStateCodec.encode(state()).length)
        .isLessThan(WireCodec.encode(state()).length * 3 / 4);
    FireRecord f = fire(FireRecord.Outcome.SUCCEEDED);
    assertThat(FireLogCodec.encode(f).length).isLessThan(WireCodec.encode(f).length / 2);
  }

  @Test
  void theDefinitionIsEncodedOnceForEveryStateThatSharesIt() {
    ScheduleState s = state();
    byte[] first = ScheduleStateCodec.encode(s);
    byte[] again = ScheduleStateCodec.encode(s.withTimer(s.nextFireAt() + 30_000, s.nextFireAt()));
    assertThat(ScheduleStateCodec.decode(again).definition()).isEqualTo(s.definition());
    assertThat(ScheduleStateCodec.decode(again).nextFireAt()).isEqualTo(s.nextFireAt() + 30_000);
    assertThat(first).isNotEqualTo(again);
  }

  @Test
  void whatCannotBeReadIsRefusedAsAWireFormatError() {
    byte[] good = ScheduleStateCodec.encode(state());
    byte[] unknown = good.clone();
    unknown[0] = 9;
    assertThatThrownBy(() -> ScheduleStateCodec.decode(unknown))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("unknown format 9");
    assertThatThrownBy(() -> ScheduleStateCodec.decode(Arrays.copyOf(good, good.length - 3)))
        .isInstanceOf(WireFormatException.class);
    assertThatThrownBy(() -> ScheduleStateCodec.decode(Arrays.copyOf(good, good.length + 1)))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("bytes left");
    assertThatThrownBy(() -> ScheduleStateCodec.decode(new byte[0]))
        .isInstanceOf(WireFormatException.class);

    byte[] fire = FireLogCodec.encode(fire(FireRecord.Outcome.RUNNING));
    assertThatThrownBy(() -> FireLogCodec.decode(Arrays.copyOf(fire, fire.length - 2)))
        .isInstanceOf(WireFormatException.class);
    byte[] badOutcome = fire.clone();
    badOutcome[1] = 99;
    assertThatThrownBy(() -> FireLogCodec.finished(badOutcome))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("unknown code 99");
  }

  @Test
  void theOutcomeByteAloneSaysWhetherALoggedFireIsFinished() {
    for (FireRecord.Outcome o : FireRecord.Outcome.values()) {
      assertThat(FireLogCodec.finished(FireLogCodec.encode(fire(o))))
          .as(o.name())
          .isEqualTo(o.finished());
    }
  }
}
