package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.HandlerSetting;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.HandlerDefaults;
import io.tasklane.scheduler.internal.lifecycle.HandlerControls;
import io.tasklane.scheduler.internal.lifecycle.LanePolicy;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class HandlerSettingsStoreTest {
  private final HandlerSettingsStore store =
      new HandlerSettingsStore(Map.of("order.cancel", new HandlerDefaults(3, "SKIP")));

  private void operator(HandlerSetting s) {
    store.apply(new ConsumerRecord<>("t.handler-settings", 0, 0, s.handler(), WireCodec.encode(s)));
  }

  @Test
  void theConfiguredLaneSettingsHoldUntilAnOperatorChangesThem() {
    assertThat(store.maxPerKey("order.cancel")).isEqualTo(3);
    assertThat(store.onDead("order.cancel")).isEqualTo(LanePolicy.SKIP);
    assertThat(store.maxPerKey("mail")).isEqualTo(HandlerControls.UNLIMITED);
    assertThat(store.onDead("mail")).isEqualTo(LanePolicy.BLOCK);
    assertThat(store.effective("mail").onDead()).isEqualTo("BLOCK");

    HandlerSetting none = HandlerSetting.defaults("order.cancel");
    operator(none.withLanes(7, "BLOCK", 1, "ops"));
    assertThat(store.maxPerKey("order.cancel")).isEqualTo(7);
    assertThat(store.onDead("order.cancel")).isEqualTo(LanePolicy.BLOCK);

    operator(none.withLanes(HandlerSetting.NO_LIMIT, null, 2, "ops"));
    assertThat(store.maxPerKey("order.cancel")).isEqualTo(HandlerControls.UNLIMITED);
    assertThat(store.effective("order.cancel").maxPerKey()).isNull();
    assertThat(store.onDead("order.cancel")).isEqualTo(LanePolicy.SKIP);

    operator(none.withLanes(null, null, 3, "ops"));
    assertThat(store.maxPerKey("order.cancel")).isEqualTo(3);
    assertThat(store.effective("order.cancel").maxPerKey()).isEqualTo(3);
    assertThat(store.get("order.cancel").maxPerKey()).isNull();
  }

  @Test
  void aPauseAloneKeepsTheConfiguredLimit() {
    operator(HandlerSetting.defaults("order.cancel").withPaused(true, 1, "ops"));
    assertThat(store.paused("order.cancel")).isTrue();
    assertThat(store.maxPerKey("order.cancel")).isEqualTo(3);
  }

  @Test
  void laneWeightsComeFromTheConfiguration() {
    HandlerSettingsStore weighted =
        new HandlerSettingsStore(
            Map.of("report", new HandlerDefaults(null, null, Map.of("gold-", 4))));
    assertThat(weighted.weight("report", "gold-1")).isEqualTo(4);
    assertThat(weighted.weight("report", "silver-1")).isEqualTo(1);
    assertThat(weighted.weight("mail", "gold-1")).isEqualTo(1);
  }
}
