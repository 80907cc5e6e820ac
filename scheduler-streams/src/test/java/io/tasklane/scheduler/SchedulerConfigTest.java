package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SchedulerConfigTest {
  private static final List<ApiToken> VIEWER =
      List.of(new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.VIEWER));

  private static SchedulerConfigBuilder base() {
    return SchedulerConfig.builder().bootstrapServers("localhost:9092").apiTokens(VIEWER);
  }

  private static SchedulerConfig config(
      int partitions, Duration interval, ProcessingGuarantee guarantee) {
    return base()
        .partitions(partitions)
        .punctuationInterval(interval)
        .processingGuarantee(guarantee)
        .build();
  }

  private static SchedulerConfig withSecrets(List<ApiToken> tokens, String interInstance) {
    return base()
        .kafka(
            Map.of(
                "sasl.jaas.config", "PlainLoginModule required username=\"u\" password=\"pw-1\";"))
        .apiTokens(tokens)
        .interInstanceToken(interInstance)
        .build();
  }

  @Test
  void fillsDefaults() {
    SchedulerConfig c = config(6, null, null);
    assertThat(c.namespace()).isEqualTo("tasklane");
    assertThat(c.applicationId()).isEqualTo("tasklane-scheduler");
    assertThat(c.punctuationInterval()).isEqualTo(SchedulerConfig.DEFAULT_PUNCTUATION_INTERVAL);
    assertThat(c.processingGuarantee()).isEqualTo(ProcessingGuarantee.AT_LEAST_ONCE);
    assertThat(c.partitions()).isEqualTo(6);
    assertThat(base().build()).isEqualTo(config(SchedulerConfig.DEFAULT_PARTITIONS, null, null));
    assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(c.stateDir().toString()).doesNotStartWith("/tmp");
  }

  @Test
  void theCommitIntervalFollowsTheGuaranteeUnlessSetAndPassThroughIsRefused() {
    assertThat(config(6, null, null).commitInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config(6, null, ProcessingGuarantee.EXACTLY_ONCE_V2).commitInterval())
        .isEqualTo(Duration.ofMillis(100));
    assertThat(
            base()
                .processingGuarantee(ProcessingGuarantee.EXACTLY_ONCE_V2)
                .commitInterval(Duration.ofMillis(50))
                .build()
                .commitInterval())
        .isEqualTo(Duration.ofMillis(50));
    assertThatThrownBy(() -> base().commitInterval(Duration.ofMillis(5)).build())
        .hasMessageStartingWith("tasklane.scheduler.commit-interval: PT0.005S is outside");
    assertThatThrownBy(() -> base().kafka(Map.of("commit.interval.ms", "1000")).build())
        .hasMessage(
            "tasklane.scheduler.kafka.commit.interval.ms: cannot be set: use"
                + " tasklane.scheduler.commit-interval");
  }

  @Test
  void theWorkersGroupPrefixDefaultsToTheNamespacesAndIsChecked() {
    assertThat(base().namespace("shop").build().workerGroupPrefix()).isEqualTo("shop-worker");
    assertThat(base().workerGroupPrefix("billing-workers").build().workerGroupPrefix())
        .isEqualTo("billing-workers");
    assertThatThrownBy(() -> base().workerGroupPrefix("bad prefix").build())
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith("tasklane.scheduler.worker-group-prefix: must match");
  }

  @Test
  void rejectsValuesOutsideTheirLimitsNamingTheKey() {
    assertThatThrownBy(() -> config(0, null, null))
        .isInstanceOf(SchedulerException.class)
        .hasMessage("tasklane.scheduler.partitions: 0 is outside 1 to 10000");
    assertThatThrownBy(() -> config(6, Duration.ofMillis(1), null))
        .hasMessageStartingWith("tasklane.scheduler.punctuation-interval: PT0.001S is outside");
    assertThat(config(6, null, ProcessingGuarantee.EXACTLY_ONCE_V2).toString())
        .contains("processingGuarantee=exactly_once_v2");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "change-me",
        "change-me-change-me-please-now",
        "Xq7vChangeMe9Lp2Rt5Wz8Kd3",
        "my-secret-value-Kq8Zt2Lm9Pw4",
        "Password1Password1Password1",
        "operator-token-0123456789",
        "Kq8Zt2Lm9Pw4-test-Rv7Yx3Nb6",
        "a-fine-EXAMPLE-Kq8Zt2Lm9Pw4",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "Kq8Zt2Lm9Pw4123456Rv7Yx3Nb6Jh",
        "Kq8Zt2Lm9Pw4abcdefRv7Yx3Nb6Jh",
        "abababababababababababababab",
        "Kq8Zt2Lm9Pw4Rv7Yx3Nb6"
      })
  void refusesPlaceholderAndWeakTokensSayingHowToMakeOneWithoutShowingIt(String token) {
    assertThatThrownBy(
            () ->
                withSecrets(
                    List.of(new ApiToken("ops-alice", token, SchedulerConfig.Role.OPERATOR)), null))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "tasklane.scheduler.api.tokens: token 'ops-alice' is refused, make one with: openssl"
                + " rand -base64 32 (it ")
        .hasMessageNotContaining(token);
  }

  @Test
  void acceptsTokensMadeTheWayTheMessageSays() {
    for (int i = 0; i < 2_000; i++) {
      String token = Tokens.random();
      assertThat(TokenStrength.weakness(token)).as(token).isNull();
    }
    assertThat(TokenStrength.weakness("0f8e1c2b-7a4d-4e9b-8c3d-5f6a7b8c9d0e")).isNull(); // uuid
    // random tokens that hold a placeholder word by chance are still random
    assertThat(TokenStrength.weakness("u6snzNG0z+oeRgncZi16toDo570TUWq1BUnkv9cBjvI=")).isNull();
    assertThat(TokenStrength.weakness("Kq8Zt2Lm9Pw4AdMinRv7Yx3Nb6Jh+5Fs1Gd0Qc/4Ue8Vb")).isNull();
  }

  @Test
  void refusesAWeakOrSharedInterInstanceTokenAndDuplicateNames() {
    ApiToken ops = new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.OPERATOR);
    assertThatThrownBy(() -> withSecrets(List.of(ops), "changeme-changeme-changeme"))
        .hasMessageStartingWith(
            "tasklane.scheduler.inter-instance-token: is refused, make one with: openssl rand");
    assertThatThrownBy(() -> withSecrets(List.of(ops), ops.token()))
        .hasMessage("tasklane.scheduler.inter-instance-token: must differ from every api token");
    ApiToken twin = new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.VIEWER);
    assertThatThrownBy(() -> withSecrets(List.of(ops, twin), null))
        .hasMessage("tasklane.scheduler.api.tokens: token name 'ops' is used twice");
  }

  @Test
  void configAsLoggedMasksTokensAndSecretKafkaSettings() {
    ApiToken ops = new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.OPERATOR);
    String inter = Tokens.random();
    String logged = withSecrets(List.of(ops), inter).toString();
    assertThat(logged)
        .contains("apiTokens=[ops:***:operator]")
        .contains("interInstanceToken=***")
        .contains("sasl.jaas.config=***")
        .doesNotContain(ops.token())
        .doesNotContain(inter)
        .doesNotContain("pw-1");
  }

  private static SchedulerConfig withKafka(Map<String, String> kafka) {
    return base().kafka(kafka).build();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "acks",
        "enable.idempotence",
        "transactional.id",
        "producer.acks",
        "enable.auto.commit",
        "main.consumer.enable.auto.commit",
        "isolation.level",
        "consumer.isolation.level"
      })
  void refusesKafkaKeysTheDeliveryGuaranteesRestOnNamingTheKey(String key) {
    assertThatThrownBy(() -> withKafka(Map.of(key, "0")))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith("tasklane.scheduler.kafka." + key + ": cannot be set: ")
        .hasMessageContaining("acks, enable.auto.commit, enable.idempotence, isolation.level");
  }

  @Test
  void refusesProcessingGuaranteeUnderKafkaNamingTheSchedulerSetting() {
    assertThatThrownBy(() -> withKafka(Map.of("processing.guarantee", "exactly_once_v2")))
        .hasMessage(
            "tasklane.scheduler.kafka.processing.guarantee: cannot be set: use"
                + " tasklane.scheduler.processing-guarantee");
    assertThat(withKafka(Map.of("linger.ms", "20", "producer.batch.size", "65536")).kafka())
        .containsEntry("linger.ms", "20");
  }
}
