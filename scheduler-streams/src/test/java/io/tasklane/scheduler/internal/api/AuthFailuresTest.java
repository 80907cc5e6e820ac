package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AuthFailuresTest {
  final SessionsTest.MovingClock clock = new SessionsTest.MovingClock();

  @Test
  void anAddressPastItsBurstIsRefusedUntilItsBucketRefillsWhileOtherAddressesAreNot() {
    AuthFailures f = new AuthFailures(clock, 10, Duration.ofSeconds(6), 100);
    for (int i = 0; i < 10; i++) {
      assertThat(f.blocked("10.0.0.1")).as("failure %d", i).isNull();
      f.failed("10.0.0.1");
    }
    AuthFailures.Block block = f.blocked("10.0.0.1");
    assertThat(block).isEqualTo(new AuthFailures.Block(6, true));
    assertThat(f.blocked("10.0.0.1").first()).as("audited once per period").isFalse();
    assertThat(f.blocked("10.0.0.2")).isNull();

    clock.now = clock.now.plusSeconds(4);
    assertThat(f.blocked("10.0.0.1").retryAfterSeconds()).isEqualTo(2);
    clock.now = clock.now.plusSeconds(2);
    assertThat(f.blocked("10.0.0.1")).as("one more try").isNull();
    f.failed("10.0.0.1");
    assertThat(f.blocked("10.0.0.1")).isEqualTo(new AuthFailures.Block(6, true));

    clock.now = clock.now.plus(Duration.ofMinutes(1));
    assertThat(f.blocked("10.0.0.1")).isNull();
    assertThat(f.size()).as("a refilled bucket is forgotten").isZero();
  }

  @Test
  void theMapOfAddressesStaysBoundedUnderManyDistinctAddresses() {
    AuthFailures f = new AuthFailures(clock, 2, Duration.ofSeconds(6), 1_000);
    for (int i = 0; i < 200_000; i++) {
      String address = "10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255);
      f.blocked(address);
      f.failed(address);
      f.failed(address);
    }
    assertThat(f.size()).isEqualTo(1_000);
    assertThat(f.blocked("10.3.13.63")).as("the most recent addresses are kept").isNotNull();
    assertThat(new AuthFailures().size()).isZero();
    assertThat(AuthFailures.MAX_ADDRESSES).isLessThanOrEqualTo(100_000);
  }
}
