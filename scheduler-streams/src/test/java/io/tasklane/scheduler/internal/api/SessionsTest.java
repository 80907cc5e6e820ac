package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.Tokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionsTest {
  /** A clock the test moves. */
  static final class MovingClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  final MovingClock clock = new MovingClock();
  final ApiToken ops = new ApiToken("ops", Tokens.random(), Role.OPERATOR);

  private Sessions sessions(int max) {
    return new Sessions(new ApiSettings(Map.of(), false, null, Duration.ofMinutes(10), max), clock);
  }

  @Test
  void aSessionIsFoundByItsIdOnlyUntilItExpiresOrIsRemoved() throws Exception {
    Sessions s = sessions(10);
    Sessions.Created c = s.create(ops);
    assertThat(c.id()).hasSizeGreaterThanOrEqualTo(43).isNotEqualTo(ops.token());
    assertThat(c.session().csrf()).hasSizeGreaterThanOrEqualTo(43).isNotEqualTo(c.id());
    assertThat(s.find(c.id()).name()).isEqualTo("ops");
    assertThat(s.find(c.id() + "x")).isNull();
    assertThat(Sessions.csrfMatches(c.session(), c.session().csrf())).isTrue();
    assertThat(Sessions.csrfMatches(c.session(), "nope")).isFalse();
    assertThat(Sessions.csrfMatches(c.session(), null)).isFalse();

    clock.now = clock.now.plus(Duration.ofMinutes(10));
    assertThat(s.find(c.id())).isNull();

    Sessions.Created d = s.create(ops);
    assertThat(s.remove(d.id())).isTrue();
    assertThat(s.find(d.id())).isNull();
  }

  @Test
  void theCapRefusesNewSessionsNamingTheSettingUntilOldOnesExpire() throws Exception {
    Sessions s = sessions(2);
    s.create(ops);
    s.create(ops);
    assertThatThrownBy(() -> s.create(ops))
        .isInstanceOf(Sessions.Full.class)
        .hasMessageContaining("tasklane.scheduler.api.max-sessions");
    clock.now = clock.now.plus(Duration.ofMinutes(11));
    assertThat(s.create(ops).session().name()).isEqualTo("ops");
  }
}
