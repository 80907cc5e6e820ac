package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.env.PropertySource;
import io.micronaut.context.env.PropertySourcePropertyResolver;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
  static final String A = io.tasklane.scheduler.Tokens.random();
  static final String B = io.tasklane.scheduler.Tokens.random();

  private static SchedulerConfig load(Map<String, Object> props) {
    return ConfigLoader.load(new PropertySourcePropertyResolver(PropertySource.of("test", props)));
  }

  private static Map<String, Object> base() {
    Map<String, Object> p = new HashMap<>();
    p.put("tasklane.scheduler.bootstrap-servers", "k1:9092");
    return p;
  }

  @Test
  void readsTypedKeysPassThroughKafkaSettingsAndTokenList() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.punctuation-interval", "250ms");
    p.put("tasklane.scheduler.retention", "2d");
    p.put("tasklane.scheduler.kafka.session.timeout.ms", "6000");
    p.put("tasklane.scheduler.kafka.security.protocol", "SASL_SSL");
    p.put("tasklane.scheduler.api.tokens", "ops-alice:" + A + ":OPERATOR, " + B + ":viewer");
    p.put("tasklane.scheduler.max-waiters-per-task", "50");

    SchedulerConfig c = load(p);

    assertThat(c.punctuationInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(c.retention()).isEqualTo(Duration.ofDays(2));
    assertThat(c.kafka())
        .containsEntry("session.timeout.ms", "6000")
        .containsEntry("security.protocol", "SASL_SSL");
    assertThat(c.apiTokens())
        .containsExactlyInAnyOrder(
            new ApiToken("ops-alice", A, Role.OPERATOR),
            new ApiToken(ApiToken.unnamed(B, Role.VIEWER).name(), B, Role.VIEWER));
    assertThat(ApiToken.unnamed(B, Role.VIEWER).name()).matches("token-[0-9a-f]{8}");
    assertThat(c.maxWaitersPerTask()).isEqualTo(50);
  }

  @Test
  void readsTokensAsAMapByNameOrByTokenTheOlderWay() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens.ops-alice", A + ":operator");
    p.put("tasklane.scheduler.api.tokens." + B.replaceAll("[^A-Za-z0-9]", "x"), "viewer");
    SchedulerConfig c = load(p);
    assertThat(c.apiTokens())
        .extracting(ApiToken::name, ApiToken::role)
        .contains(org.assertj.core.groups.Tuple.tuple("ops-alice", Role.OPERATOR));
    assertThat(c.apiTokens()).hasSize(2).extracting(ApiToken::role).contains(Role.VIEWER);
  }

  @Test
  void rejectsUnknownRolesAndMissingTokens() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":admin");
    assertThatThrownBy(() -> load(p)).hasMessageContaining("must be viewer or operator");
    assertThatThrownBy(() -> load(base()))
        .hasMessageStartingWith("tasklane.scheduler.api.tokens: needs at least one token");
  }
}
