package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.env.PropertySource;
import io.micronaut.context.env.PropertySourcePropertyResolver;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
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
    p.put("tasklane.scheduler.api.tokens", "aaaaaaaaaaaaaaaa1:viewer, bbbbbbbbbbbbbbbb2:OPERATOR");

    SchedulerConfig c = load(p);

    assertThat(c.punctuationInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(c.retention()).isEqualTo(Duration.ofDays(2));
    assertThat(c.kafka())
        .containsEntry("session.timeout.ms", "6000")
        .containsEntry("security.protocol", "SASL_SSL");
    assertThat(c.apiTokens())
        .containsEntry("aaaaaaaaaaaaaaaa1", Role.VIEWER)
        .containsEntry("bbbbbbbbbbbbbbbb2", Role.OPERATOR);
  }

  @Test
  void rejectsUnknownRolesAndMissingTokens() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "aaaaaaaaaaaaaaaa1:admin");
    assertThatThrownBy(() -> load(p)).hasMessageContaining("must be viewer or operator");
    assertThatThrownBy(() -> load(base()))
        .hasMessageStartingWith("tasklane.scheduler.api.tokens: needs at least one token");
  }
}
