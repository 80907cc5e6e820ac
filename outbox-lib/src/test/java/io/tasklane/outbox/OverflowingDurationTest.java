package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A {@link Duration} too large for a long of milliseconds (here {@code Long.MAX_VALUE} seconds) is
 * a clear error naming the field wherever the API takes one, never a bare {@link
 * ArithmeticException}.
 */
class OverflowingDurationTest {
  private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);

  @Test
  void retryPoliciesNameTheirField() {
    assertThatThrownBy(() -> RetryPolicy.fixed(Duration.ofSeconds(1), HUGE))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("backoff.delaysMs")
        .hasMessageContaining("does not fit in a long of milliseconds");
    assertThatThrownBy(() -> RetryPolicy.exponential(HUGE, Duration.ofMinutes(1)))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("backoff.baseMs");
    assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ofSeconds(1), HUGE))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("backoff.maxDelayMs");
  }

  @Test
  void scheduleRatesAndTimeoutsNameTheirField() {
    assertThatThrownBy(() -> ScheduleRequest.named("s").every(HUGE))
        .isInstanceOf(InvalidTaskException.class)
        .extracting(e -> ((InvalidTaskException) e).field())
        .isEqualTo("every");
    assertThatThrownBy(() -> ScheduleRequest.named("s").timeout(HUGE))
        .isInstanceOf(InvalidTaskException.class)
        .extracting(e -> ((InvalidTaskException) e).field())
        .isEqualTo("timeoutMs");
    assertThatThrownBy(() -> TaskType.of("mail.send", String.class).timeout(HUGE))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("outside 1 s to 24 h");
  }

  @Test
  void theOutboxsDefaultTimeoutNamesItsSettingAndRange() {
    assertThatThrownBy(
            () ->
                new OutboxConfig(
                    OutboxConfig.DEFAULT_MAX_PAYLOAD_BYTES,
                    OutboxConfig.DEFAULT_MAX_ATTEMPTS,
                    HUGE,
                    true))
        .isInstanceOf(OutboxException.class)
        .hasMessageContaining("tasklane.outbox.default-timeout")
        .hasMessageContaining("1 s to 24 h");
    assertThat(OutboxConfig.DEFAULT.defaultTimeout()).isEqualTo(OutboxConfig.DEFAULT_TIMEOUT);
  }
}
