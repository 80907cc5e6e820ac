package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.tasklane.worker.internal.WorkerSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
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
      assertThat(cancel)
          .isEqualTo(
              HandlerConfig.builder()
                  .enabled(false)
                  .concurrency(8)
                  .maxInFlight(16)
                  .timeout(Duration.ofSeconds(90))
                  .partitions(6)
                  .build());
      assertThat(s.handler("other"))
          .isEqualTo(HandlerConfig.builder().concurrency(3).maxInFlight(6).partitions(6).build());
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
    assertThatThrownBy(() -> HandlerConfig.builder().concurrency(4).maxInFlight(2).build())
        .isInstanceOf(WorkerException.class)
        .hasMessageContaining("max-in-flight must be between concurrency (4)");
    assertThatThrownBy(() -> HandlerConfig.builder().concurrency(0).maxInFlight(2).build())
        .hasMessageContaining("concurrency must be 1 to 1000, was 0");
    assertThatThrownBy(
            () ->
                HandlerConfig.builder()
                    .concurrency(1)
                    .maxInFlight(2)
                    .timeout(Duration.ofHours(25))
                    .build())
        .hasMessageContaining("timeout must be > 0 and ≤ 24 h");
  }

  @Test
  void sessionTimeoutDefaultsToSixSecondsWithinOneSecondToThirtyMinutes() {
    WorkerConfigBuilder b = WorkerConfig.builder().bootstrapServers("broker:9092");
    assertThat(b.build().sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
    assertThatThrownBy(() -> b.sessionTimeout(Duration.ofMillis(999)).build())
        .hasMessageContaining("tasklane.worker.session-timeout must be 1s to 30m");
    assertThatThrownBy(() -> b.sessionTimeout(Duration.ofMinutes(31)).build())
        .hasMessageContaining("tasklane.worker.session-timeout must be 1s to 30m");
  }

  @Test
  void environmentWinsOverSystemPropertiesOverTheMicronautConfigurationOverTheDefault() {
    Map<String, String> file =
        Map.of(
            "tasklane.worker.bootstrap-servers", "file:9092",
            "tasklane.worker.concurrency", "2",
            "tasklane.worker.shutdown-grace", "10s",
            "tasklane.worker.handlers.order.cancel.timeout", "1m");
    Properties sys = new Properties();
    sys.setProperty("tasklane.worker.bootstrap-servers", "sys:9092");
    sys.setProperty("tasklane.worker.concurrency", "3");
    Map<String, String> env =
        Map.of(
            "TASKLANE_WORKER_BOOTSTRAP_SERVERS", "env:9092",
            "TASKLANE_WORKER_HANDLERS_ORDER_CANCEL_TIMEOUT", "2m",
            "TASKLANE_WORKER_KAFKA_SECURITY_PROTOCOL", "SSL");

    WorkerSettings s = WorkerSettings.of(file, sys, env);

    assertThat(s.config().bootstrapServers()).isEqualTo("env:9092");
    assertThat(s.config().concurrency()).isEqualTo(3);
    assertThat(s.config().shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.config().logBytesPerAttempt())
        .isEqualTo(WorkerConfig.DEFAULT_LOG_BYTES_PER_ATTEMPT);
    assertThat(s.config().kafka()).containsEntry("security.protocol", "SSL");
    assertThat(s.handler("order.cancel").timeout()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void unknownKeysAreRefusedAtStartNamingTheNearestKnownOne() {
    Map<String, Object> props =
        Map.of(
            "tasklane.worker.bootstrap-servers", "127.0.0.1:1",
            "tasklane.worker.handlers.mail.max-inflight", "5");
    assertThatThrownBy(() -> ApplicationContext.run(props).close())
        .rootCause()
        .hasMessageStartingWith(
            "tasklane.worker.handlers.mail.max-inflight: unknown setting; did you mean"
                + " 'tasklane.worker.handlers.*.max-in-flight'?");
    assertThatThrownBy(
            () ->
                WorkerSettings.of(
                    Map.of(),
                    new Properties(),
                    Map.of(
                        "TASKLANE_WORKER_BOOTSTRAP_SERVERS", "k:1",
                        "TASKLANE_WORKER_CONCURENCY", "4")))
        .isInstanceOf(WorkerException.class)
        .hasMessageStartingWith(
            "tasklane.worker.concurency: unknown setting; did you mean"
                + " 'tasklane.worker.concurrency'?");
  }

  @Test
  void durationsTakeTheirUnitAndABareNumberIsRefused() {
    assertThatThrownBy(
            () ->
                WorkerSettings.of(
                    Map.of(
                        "tasklane.worker.bootstrap-servers", "k:1",
                        "tasklane.worker.shutdown-grace", "30"),
                    new Properties(),
                    Map.of()))
        .isInstanceOf(WorkerException.class)
        .hasMessageStartingWith("tasklane.worker.shutdown-grace: '30' is not a duration");
    assertThat(
            WorkerSettings.of(
                    Map.of(
                        "tasklane.worker.bootstrap-servers", "k:1",
                        "tasklane.worker.shutdown-grace", "PT45S"),
                    new Properties(),
                    Map.of())
                .config()
                .shutdownGrace())
        .isEqualTo(Duration.ofSeconds(45));
  }
}
