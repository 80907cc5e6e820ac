package io.tasklane.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigSourceTest {
  static final ConfigKeys KEYS =
      ConfigKeys.of(
          "tasklane.demo",
          List.of("http-port", "retention", "guarantee", "handlers.*.max-in-flight", "api.tokens"),
          List.of("kafka."));

  enum Guarantee {
    AT_LEAST_ONCE,
    EXACTLY_ONCE_V2
  }

  @Test
  void environmentWinsOverSystemPropertyOverFileOverDefault() {
    Map<String, String> file =
        Map.of(
            "tasklane.demo.http-port", "1",
            "tasklane.demo.retention", "1h",
            "tasklane.demo.guarantee", "at_least_once",
            "other.key", "ignored");
    Properties sys = new Properties();
    sys.setProperty("tasklane.demo.http-port", "2");
    sys.setProperty("tasklane.demo.retention", "2h");
    sys.setProperty("java.home", "/jdk");
    Map<String, String> env = Map.of("TASKLANE_DEMO_HTTP_PORT", "3", "PATH", "/bin");

    ConfigSource c = ConfigSource.layer(KEYS, file, sys, env);

    assertThat(c.integer("http-port", 0)).isEqualTo(3);
    assertThat(c.origin("http-port")).isEqualTo(ConfigSource.Layer.ENVIRONMENT);
    assertThat(c.duration("retention")).isEqualTo(Duration.ofHours(2));
    assertThat(c.origin("retention")).isEqualTo(ConfigSource.Layer.SYSTEM_PROPERTY);
    assertThat(c.enumValue("guarantee", Guarantee.class)).isEqualTo(Guarantee.AT_LEAST_ONCE);
    assertThat(c.origin("guarantee")).isEqualTo(ConfigSource.Layer.FILE);
    assertThat(c.integer("unset", 42)).isEqualTo(42);
    assertThat(c.duration("unset")).isNull();
  }

  @Test
  void aBlankValueIsUnsetSoALowerLayerApplies() {
    Properties sys = new Properties();
    sys.setProperty("tasklane.demo.http-port", "2");
    ConfigSource c =
        ConfigSource.layer(KEYS, Map.of(), sys, Map.of("TASKLANE_DEMO_HTTP_PORT", " "));
    assertThat(c.integer("http-port", 0)).isEqualTo(2);
  }

  @Test
  void mapsEnvironmentNamesToKeysPassThroughAndTemplates() {
    assertThat(KEYS.fromEnv("TASKLANE_DEMO_HTTP_PORT")).isEqualTo("http-port");
    assertThat(KEYS.fromEnv("TASKLANE_DEMO_API_TOKENS")).isEqualTo("api.tokens");
    assertThat(KEYS.fromEnv("TASKLANE_DEMO_KAFKA_SASL_JAAS_CONFIG"))
        .isEqualTo("kafka.sasl.jaas.config");
    assertThat(KEYS.fromEnv("TASKLANE_DEMO_HANDLERS_ORDER_CANCEL_MAX_IN_FLIGHT"))
        .isEqualTo("handlers.order.cancel.max-in-flight");
    assertThat(KEYS.fromEnv("TASKLANE_DEMO_HTTP_PORTT")).isEqualTo("http-portt");
    assertThat(KEYS.fromEnv("PATH")).isNull();
    ConfigSource c =
        ConfigSource.layer(
            KEYS,
            Map.of(),
            new Properties(),
            Map.of("TASKLANE_DEMO_KAFKA_SECURITY_PROTOCOL", "SSL"));
    assertThat(c.passThrough("kafka.")).containsEntry("security.protocol", "SSL");
  }

  @Test
  void refusesAnUnknownKeyNamingItAndTheNearestKnownOne() {
    assertThatThrownBy(() -> ConfigSource.of(KEYS, Map.of("tasklane.demo.retension", "1h")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "tasklane.demo.retension: unknown setting; did you mean 'tasklane.demo.retention'?");
    assertThatThrownBy(
            () ->
                ConfigSource.layer(
                    KEYS, Map.of(), new Properties(), Map.of("TASKLANE_DEMO_HTTP_PROT", "1")))
        .hasMessageStartingWith(
            "tasklane.demo.http-prot: unknown setting; did you mean 'tasklane.demo.http-port'?");
    assertThatThrownBy(
            () -> ConfigSource.of(KEYS, Map.of("tasklane.demo.handlers.x.max-in-flite", "1")))
        .hasMessageContaining("did you mean 'tasklane.demo.handlers.*.max-in-flight'?");
    assertThat(
            ConfigSource.of(KEYS, Map.of("tasklane.demo.handlers.a.b.max-in-flight", "5"))
                .integer("handlers.a.b.max-in-flight", 0))
        .isEqualTo(5);
    assertThat(ConfigKeys.freeSegment("handlers.*.max-in-flight", "handlers.a.b.max-in-flight"))
        .isEqualTo("a.b");
  }

  @Test
  void refusesAnEnumValueNamingTheAllowedOnes() {
    ConfigSource c = ConfigSource.of(KEYS, Map.of("tasklane.demo.guarantee", "exactly_once"));
    assertThatThrownBy(() -> c.enumValue("guarantee", Guarantee.class))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "tasklane.demo.guarantee: 'exactly_once' must be one of at_least_once,"
                + " exactly_once_v2");
    assertThat(
            ConfigSource.of(KEYS, Map.of("tasklane.demo.guarantee", "Exactly-Once-V2"))
                .enumValue("guarantee", Guarantee.class))
        .isEqualTo(Guarantee.EXACTLY_ONCE_V2);
  }

  @Test
  void refusesValuesNotOfTheirFormNamingTheKey() {
    ConfigSource c =
        ConfigSource.of(
            KEYS,
            Map.of(
                "tasklane.demo.http-port", "80a",
                "tasklane.demo.guarantee", "yes",
                "tasklane.demo.retention", "30"));
    assertThatThrownBy(() -> c.integer("http-port", 0))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tasklane.demo.http-port: '80a' is not a number");
    assertThatThrownBy(() -> c.bool("guarantee", false))
        .hasMessage("tasklane.demo.guarantee: 'yes' must be true or false");
    assertThatThrownBy(() -> c.duration("retention"))
        .hasMessageStartingWith("tasklane.demo.retention: '30' is not a duration");
  }

  @Test
  void refusesARetiredKeyWithItsOwnMessage() {
    ConfigKeys keys =
        KEYS.withRetired(Map.of("retention-ms", "renamed to 'tasklane.demo.retention'"));
    assertThatThrownBy(() -> ConfigSource.of(keys, Map.of("tasklane.demo.retention-ms", "5")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tasklane.demo.retention-ms: renamed to 'tasklane.demo.retention'");
    assertThat(ConfigSource.of(keys, Map.of("tasklane.demo.retention", "5s")).duration("retention"))
        .isEqualTo(Duration.ofSeconds(5));
  }
}
