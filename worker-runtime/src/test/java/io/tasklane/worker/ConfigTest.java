package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.tasklane.worker.internal.WorkerSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigTest {

  @Test
  void handlerSettingsComeFromPropertiesWithDefaults() {
    try (ApplicationContext ctx =
        ApplicationContext.builder()
            .properties(
                Map.of(
                    "tasklane.worker.enabled",
                    false,
                    "tasklane.worker.bootstrap-servers",
                    "127.0.0.1:1",
                    "tasklane.worker.namespace",
                    "acme",
                    "tasklane.worker.concurrency",
                    3,
                    "tasklane.worker.handlers.order.cancel.concurrency",
                    8,
                    "tasklane.worker.handlers.order.cancel.timeout",
                    "90s",
                    "tasklane.worker.handlers.order.cancel.enabled",
                    false,
                    "tasklane.worker.kafka.max.poll.interval.ms",
                    "600000"))
            .build()) {
      ctx.start();
      WorkerSettings s = ctx.getBean(WorkerSettings.class);
      assertThat(s.config().topics().namespace()).isEqualTo("acme");
      assertThat(s.config().groupId()).isEqualTo("acme-worker");
      assertThat(s.config().kafka()).containsEntry("max.poll.interval.ms", "600000");
      HandlerConfig cancel = s.handler("order.cancel");
      assertThat(cancel).isEqualTo(new HandlerConfig(false, 8, 16, Duration.ofSeconds(90), 6));
      assertThat(s.handler("other")).isEqualTo(new HandlerConfig(true, 3, 6, null, 6));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "acks",
        "enable.idempotence",
        "enable.auto.commit",
        "auto.offset.reset",
        "group.id"
      })
  void kafkaPassThroughCannotOverrideWhatDeliveryDependsOnAndStartFailsNamingTheKey(String key) {
    Map<String, Object> props =
        Map.of(
            "tasklane.worker.bootstrap-servers",
            "127.0.0.1:1",
            "tasklane.worker.namespace",
            "acme",
            "tasklane.worker.kafka." + key,
            "x");
    assertThatThrownBy(() -> ApplicationContext.run(props).close())
        .rootCause()
        .isInstanceOf(WorkerException.class)
        .hasMessageContaining("tasklane.worker.kafka." + key + " cannot be set")
        .hasMessageContaining("at-least-once");
  }

  @Test
  void methodCallsSettingIsAutoUnlessTrueOrFalse() {
    assertThat(settings(Map.of()).config().methodCalls()).isEqualTo(WorkerConfig.MethodCalls.AUTO);
    assertThat(
            settings(Map.of("tasklane.worker.method-calls.enabled", "true")).config().methodCalls())
        .isEqualTo(WorkerConfig.MethodCalls.ENABLED);
    assertThat(
            settings(Map.of("tasklane.worker.method-calls.enabled", false)).config().methodCalls())
        .isEqualTo(WorkerConfig.MethodCalls.DISABLED);
    assertThatThrownBy(() -> settings(Map.of("tasklane.worker.method-calls.enabled", "maybe")))
        .rootCause()
        .hasMessageContaining("tasklane.worker.method-calls.enabled must be auto, true or false");
  }

  @Test
  void theLoggedFormMasksSaslAndKeystoreSecrets() {
    String shown =
        settings(
                Map.of(
                    "tasklane.worker.kafka.sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"worker\" password=\"s3cr3t-jaas\";",
                    "tasklane.worker.kafka.ssl.truststore.password",
                    "s3cr3t-store",
                    "tasklane.worker.kafka.security.protocol",
                    "SASL_SSL"))
            .config()
            .toString();
    assertThat(shown).doesNotContain("s3cr3t").contains("SASL_SSL").contains("127.0.0.1:1");
  }

  private static WorkerSettings settings(Map<String, Object> extra) {
    Map<String, Object> p = new java.util.HashMap<>(extra);
    p.put("tasklane.worker.enabled", false);
    p.put("tasklane.worker.bootstrap-servers", "127.0.0.1:1");
    try (ApplicationContext ctx = ApplicationContext.run(p)) {
      return ctx.getBean(WorkerSettings.class);
    }
  }

  @Test
  void invalidValuesNameTheFieldAndTheLimit() {
    assertThatThrownBy(() -> new HandlerConfig(true, 4, 2, null, 6))
        .isInstanceOf(WorkerException.class)
        .hasMessageContaining("max-in-flight must be between concurrency (4)");
    assertThatThrownBy(() -> new HandlerConfig(true, 0, 2, null, 6))
        .hasMessageContaining("concurrency must be 1 to 1000, was 0");
    assertThatThrownBy(() -> new HandlerConfig(true, 1, 2, Duration.ofHours(25), 6))
        .hasMessageContaining("timeout must be > 0 and ≤ 24 h");
  }
}
