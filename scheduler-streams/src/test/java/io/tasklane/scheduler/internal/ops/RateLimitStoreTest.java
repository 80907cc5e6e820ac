package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.RateLimitSetting;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.HandlerDefaults;
import io.tasklane.scheduler.RateLimit;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class RateLimitStoreTest {
  private final RateLimitStore store =
      new RateLimitStore(
          Map.of(
              "order.cancel", new HandlerDefaults(null, null, Map.of(), RateLimit.parse("5/s", 1))),
          Map.of("partner-api", RateLimit.parse("50/s", 10)));

  private long offset;

  private void record(String key, byte[] value) {
    store.apply(new ConsumerRecord<>("t.rate-limits", 0, offset++, key, value));
  }

  private void set(String key, String rate, int burst) {
    record(key, WireCodec.encode(RateLimitSetting.of(key, rate, burst, 1L, "ops")));
  }

  @Test
  void aSettingReplacesTheConfiguredLimitUntilItsTombstone() {
    assertThat(store.current("partner-api")).isEqualTo(RateLimit.parse("50/s", 10));

    set("partner-api", "20/s", 2);
    assertThat(store.current("partner-api")).isEqualTo(RateLimit.parse("20/s", 2));
    assertThat(store.configured("partner-api")).isEqualTo(RateLimit.parse("50/s", 10));
    assertThat(store.setting("partner-api").actor()).isEqualTo("ops");

    record("partner-api", null);
    assertThat(store.current("partner-api")).isEqualTo(RateLimit.parse("50/s", 10));
    assertThat(store.setting("partner-api")).isNull();
  }

  @Test
  void aHandlersOwnRateAndANewLimitAreListedWithTheConfiguredOnes() {
    assertThat(store.handlerLimited("order.cancel")).isTrue();
    assertThat(store.handlerLimited("mail")).isFalse();

    set("handler/mail", "2/s", 1);
    set("fresh", "1/min", 1);
    assertThat(store.handlerLimited("mail")).isTrue();
    assertThat(store.all().keySet())
        .containsExactly("fresh", "handler/mail", "handler/order.cancel", "partner-api");
    assertThat(store.view("handler/mail").handler()).isEqualTo("mail");
    assertThat(store.view("fresh").configured()).isNull();

    record("fresh", null);
    assertThat(store.current("fresh")).isNull();
  }

  @Test
  void anUnreadableOrOutOfRangeRecordIsSkippedAndTheLimitBeforeItStays() {
    set("partner-api", "20/s", 2);

    record("partner-api", "{not json".getBytes(StandardCharsets.UTF_8));
    set("partner-api", "0/s", 1);
    set("partner-api", "20/s", 100_001);
    record(
        "partner-api",
        WireCodec.encode(RateLimitSetting.of("other", "99/s", 1, 1L, "ops"))); // wrong key

    assertThat(store.current("partner-api")).isEqualTo(RateLimit.parse("20/s", 2));
    assertThat(store.current("other")).isNull();
  }
}
