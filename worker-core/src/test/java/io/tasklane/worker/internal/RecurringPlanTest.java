package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The publishing rules of code-defined schedules, as a pure function. */
class RecurringPlanTest {
  private static final long T1 = 1_700_000_000_000L;
  private static final long T2 = T1 + 60_000;

  private static ScheduleDefinition code(String name, String every) {
    return ScheduleDefinition.builder()
        .name(name)
        .handler("a.b")
        .every(every)
        .origin("code:app")
        .build();
  }

  @Test
  void aFirstStartPublishesEveryDefinitionWithTheStartTimeAsVersion() {
    RecurringPlan plan = RecurringPlan.of(List.of(code("s1", "5m")), null, "app", 0, T1);

    assertThat(plan.publish()).extracting(ScheduleDefinition::version).containsExactly(T1);
    assertThat(plan.manifest().schedules()).isEqualTo(plan.publish());
    assertThat(plan.disabled()).isEmpty();
  }

  @Test
  void anIdenticalRestartPublishesNothingAndKeepsTheManifest() {
    RecurringManifest m =
        RecurringPlan.of(List.of(code("s1", "5m")), null, "app", 0, T1).manifest();
    RecurringManifest readBack = WireCodec.decode(WireCodec.encode(m), RecurringManifest.class);

    RecurringPlan plan = RecurringPlan.of(List.of(code("s1", "5m")), readBack, "app", 0, T2);

    assertThat(readBack).isEqualTo(m);
    assertThat(plan.publish()).isEmpty();
    assertThat(plan.manifest()).isNull();
  }

  @Test
  void aChangedDefinitionGetsAVersionAboveThePreviousEvenWhenTheClockIsBehind() {
    RecurringManifest m =
        RecurringPlan.of(List.of(code("s1", "5m")), null, "app", 0, T2).manifest();

    RecurringPlan plan = RecurringPlan.of(List.of(code("s1", "10m")), m, "app", 0, T1);

    assertThat(plan.publish())
        .singleElement()
        .satisfies(d -> assertThat(d.version()).isEqualTo(T2 + 1));
  }

  @Test
  void aLostDefinitionIsDisabledOnceAndKept() {
    RecurringManifest m =
        RecurringPlan.of(List.of(code("s1", "5m"), code("s2", "1h")), null, "app", 0, T1)
            .manifest();

    RecurringPlan plan = RecurringPlan.of(List.of(code("s1", "5m")), m, "app", 0, T2);
    RecurringPlan again =
        RecurringPlan.of(List.of(code("s1", "5m")), plan.manifest(), "app", 0, T2 + 1);

    assertThat(plan.disabled()).containsExactly("s2");
    assertThat(plan.publish())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.name()).isEqualTo("s2");
              assertThat(d.enabled()).isFalse();
              assertThat(d.version()).isEqualTo(T2);
            });
    assertThat(again.publish()).isEmpty();
    assertThat(again.manifest()).isNull();
  }

  @Test
  void anAppWithoutCodeSchedulesWritesNoManifest() {
    RecurringPlan plan = RecurringPlan.of(List.of(), null, "app", 0, T1);

    assertThat(plan.publish()).isEmpty();
    assertThat(plan.manifest()).isNull();
  }

  @Test
  void anOlderBuildPublishesNothing() {
    RecurringManifest m =
        RecurringPlan.of(List.of(code("s1", "5m")), null, "app", 9, T1).manifest();

    RecurringPlan plan = RecurringPlan.of(List.of(code("s1", "1m")), m, "app", 8, T2);

    assertThat(plan.olderBuild()).isTrue();
    assertThat(plan.publish()).isEmpty();
    assertThat(plan.manifest()).isNull();
  }
}
