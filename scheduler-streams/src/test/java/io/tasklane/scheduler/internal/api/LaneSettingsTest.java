package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.HandlerSetting;
import org.junit.jupiter.api.Test;

class LaneSettingsTest {
  private final HandlerSetting set = HandlerSetting.defaults("h").withLanes(5, "SKIP", 1, "ops");

  @Test
  void noneLiftsTheLimitAndDefaultGoesBackToTheConfiguredOne() {
    assertThat(LaneSettings.problem("none", null)).isNull();
    assertThat(LaneSettings.problem("default", "default")).isNull();
    HandlerSetting none = LaneSettings.apply(set, "none", null, 2, "ops");
    assertThat(none.maxPerKey()).isEqualTo(HandlerSetting.NO_LIMIT);
    assertThat(none.onDead()).isEqualTo("SKIP");
    HandlerSetting back = LaneSettings.apply(set, "default", "default", 3, "ops");
    assertThat(back.maxPerKey()).isNull();
    assertThat(back.onDead()).isNull();
    assertThat(LaneSettings.apply(set, null, "BLOCK", 4, "ops").maxPerKey()).isEqualTo(5);
  }

  @Test
  void aWrongValueIsRefusedNamingTheParameterAndItsLimits() {
    assertThat(LaneSettings.problem("0", null))
        .startsWith("maxPerKey: '0' must be an integer from 1 to 100000");
    assertThat(LaneSettings.problem("100001", null)).contains("none (no limit) or default");
    assertThat(LaneSettings.problem(null, "later")).startsWith("onDead: 'later' must be BLOCK");
    assertThat(LaneSettings.problem(null, null)).startsWith("maxPerKey or onDead");
  }
}
