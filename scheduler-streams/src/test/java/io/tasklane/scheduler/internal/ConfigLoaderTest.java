package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import io.tasklane.scheduler.AlertConfig;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.HandlerDefaults;
import io.tasklane.scheduler.ProcessingGuarantee;
import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.SchedulerException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
  static final String A = io.tasklane.scheduler.Tokens.random();
  static final String B = io.tasklane.scheduler.Tokens.random();

  private static SchedulerConfig load(Map<String, Object> props) {
    Map<String, String> file = new HashMap<>();
    props.forEach((k, v) -> file.put(k, String.valueOf(v)));
    return ConfigLoader.load(file, new Properties(), Map.of());
  }

  private static Map<String, Object> base() {
    Map<String, Object> p = new HashMap<>();
    p.put("tasklane.scheduler.bootstrap-servers", "k1:9092");
    return p;
  }

  @Test
  void theSizedDispatchWindowIsOnUnlessTurnedOff() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    assertThat(load(p).adaptiveWindow()).isTrue();
    p.put("tasklane.scheduler.adaptive-window", "false");
    assertThat(load(p).adaptiveWindow()).isFalse();
  }

  @Test
  void readsLaneWeightsByKeyPrefixAndNamesTheKeyOfABadOne() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    p.put("tasklane.scheduler.handlers.report.render.weights", "gold-=4, gold-vip-=8,silver-=2");

    HandlerDefaults d = load(p).handlers().get("report.render");

    assertThat(d.weights())
        .containsOnly(entry("gold-", 4), entry("gold-vip-", 8), entry("silver-", 2));
    assertThat(d.weight("gold-7")).isEqualTo(4);
    assertThat(d.weight("gold-vip-7")).as("the longest prefix").isEqualTo(8);
    assertThat(d.weight("bronze-7")).isEqualTo(1);

    for (String bad : List.of("gold-=0", "gold-=101", "gold-", "=3", "gold-=2,gold-=3", "a=x")) {
      Map<String, Object> b = base();
      b.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
      b.put("tasklane.scheduler.handlers.report.render.weights", bad);
      assertThatThrownBy(() -> load(b))
          .as(bad)
          .isInstanceOf(SchedulerException.class)
          .hasMessageContaining("tasklane.scheduler.handlers.report.render.weights")
          .hasMessageContaining("from 1 to 100");
    }
  }

  @Test
  void readsLaneSettingsPerHandlerAndNamesTheKeyOfABadOne() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    p.put("tasklane.scheduler.handlers.order.cancel.max-per-key", "3");
    p.put("tasklane.scheduler.handlers.order.cancel.on-dead", "skip");
    p.put("tasklane.scheduler.handlers.mail.on-dead", "BLOCK");

    SchedulerConfig c = load(p);

    assertThat(c.handlers())
        .containsOnly(
            Map.entry("order.cancel", new HandlerDefaults(3, "SKIP")),
            Map.entry("mail", new HandlerDefaults(null, "BLOCK")));

    Map<String, Object> tooMany = base();
    tooMany.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    tooMany.put("tasklane.scheduler.handlers.mail.max-per-key", "0");
    assertThatThrownBy(() -> load(tooMany))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.handlers.mail.max-per-key")
        .hasMessageContaining("from 1 to 100000");

    Map<String, Object> badPolicy = base();
    badPolicy.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    badPolicy.put("tasklane.scheduler.handlers.mail.on-dead", "later");
    assertThatThrownBy(() -> load(badPolicy))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.handlers.mail.on-dead")
        .hasMessageContaining("BLOCK or SKIP");

    Map<String, Object> badName = base();
    badName.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    badName.put("tasklane.scheduler.handlers.Mail.max-per-key", "2");
    assertThatThrownBy(() -> load(badName))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.handlers.Mail")
        .hasMessageContaining("not a handler name");
  }

  @Test
  void readsRateLimitsByNameAndByHandlerAndNamesTheKeyOfABadOne() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    p.put("tasklane.scheduler.limits.partner-api.rate", "50/s");
    p.put("tasklane.scheduler.limits.partner-api.burst", "10");
    p.put("tasklane.scheduler.limits.nightly.rate", "600/min");
    p.put("tasklane.scheduler.handlers.order.cancel.rate", "1000/h");

    SchedulerConfig c = load(p);

    assertThat(c.limits())
        .containsOnly(
            Map.entry("partner-api", new RateLimit(50, 1, 10)),
            Map.entry("nightly", new RateLimit(600, 60, 1)));
    assertThat(c.limits().get("partner-api").intervalMicros()).isEqualTo(20_000);
    assertThat(c.limits().get("nightly").intervalMicros()).isEqualTo(100_000);
    assertThat(c.handlers().get("order.cancel").rate()).isEqualTo(new RateLimit(1000, 3600, 1));

    for (String bad : List.of("50", "50/day", "-1/s", "0/s", "fast")) {
      Map<String, Object> b = base();
      b.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
      b.put("tasklane.scheduler.limits.partner-api.rate", bad);
      assertThatThrownBy(() -> load(b))
          .as(bad)
          .isInstanceOf(SchedulerException.class)
          .hasMessageContaining("tasklane.scheduler.limits.partner-api.rate");
    }
    Map<String, Object> burstOnly = base();
    burstOnly.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    burstOnly.put("tasklane.scheduler.handlers.mail.burst", "5");
    assertThatThrownBy(() -> load(burstOnly))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.handlers.mail.burst")
        .hasMessageContaining("needs a rate");
    Map<String, Object> bigBurst = base();
    bigBurst.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    bigBurst.put("tasklane.scheduler.limits.x.rate", "5/s");
    bigBurst.put("tasklane.scheduler.limits.x.burst", "100001");
    assertThatThrownBy(() -> load(bigBurst))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.limits.x.burst")
        .hasMessageContaining("from 1 to 100000");
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
    assertThat(load(p).apiTokens().get(0).role()).isEqualTo(Role.ADMIN);
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":root");
    assertThatThrownBy(() -> load(p)).hasMessageContaining("must be viewer, operator or admin");
    assertThatThrownBy(() -> load(base()))
        .hasMessageStartingWith("tasklane.scheduler.api.tokens: needs at least one token");
  }

  @Test
  void environmentWinsOverSystemPropertiesOverTheFileOverTheDefault() {
    Map<String, String> file = new HashMap<>();
    file.put("tasklane.scheduler.bootstrap-servers", "file:9092");
    file.put("tasklane.scheduler.retention", "1d");
    file.put("tasklane.scheduler.snooze-cap", "7");
    file.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    Properties sys = new Properties();
    sys.setProperty("tasklane.scheduler.bootstrap-servers", "sys:9092");
    sys.setProperty("tasklane.scheduler.retention", "2d");
    Map<String, String> env =
        Map.of(
            "TASKLANE_SCHEDULER_BOOTSTRAP_SERVERS", "env:9092",
            "TASKLANE_SCHEDULER_PROCESSING_GUARANTEE", "exactly_once_v2",
            "TASKLANE_SCHEDULER_KAFKA_SECURITY_PROTOCOL", "SSL");

    SchedulerConfig c = ConfigLoader.load(file, sys, env);

    assertThat(c.bootstrapServers()).isEqualTo("env:9092");
    assertThat(c.retention()).isEqualTo(Duration.ofDays(2));
    assertThat(c.snoozeCap()).isEqualTo(7);
    assertThat(c.scanBound()).isEqualTo(SchedulerConfig.DEFAULT_SCAN_BOUND);
    assertThat(c.processingGuarantee()).isEqualTo(ProcessingGuarantee.EXACTLY_ONCE_V2);
    assertThat(c.kafka()).containsEntry("security.protocol", "SSL");
  }

  @Test
  void theFileLayerIsTheMicronautConfigurationAndTheEnvironmentStillWins() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", List.of("ops:" + A + ":operator"));
    p.put("tasklane.scheduler.timeout-grace", "90s");
    p.put("tasklane.scheduler.namespace", "fromcontext"); // application.yml has tasklane
    try (ApplicationContext ctx = ApplicationContext.builder().properties(p).build()) {
      Environment environment = ctx.getEnvironment().start(); // the sources, no beans
      Map<String, String> file = ConfigLoader.fileLayer(environment);
      assertThat(file)
          .containsEntry("tasklane.scheduler.bootstrap-servers", "k1:9092")
          .containsEntry("tasklane.scheduler.api.tokens", "ops:" + A + ":operator")
          .containsEntry("tasklane.scheduler.namespace", "fromcontext");
      SchedulerConfig c =
          ConfigLoader.load(
              file, new Properties(), Map.of("TASKLANE_SCHEDULER_TIMEOUT_GRACE", "2m"));
      assertThat(c.timeoutGrace()).isEqualTo(Duration.ofMinutes(2));
    }
  }

  @Test
  void refusesUnknownKeysNamingTheNearestKnownOne() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    p.put("tasklane.scheduler.punctuation-intervall", "1s");
    assertThatThrownBy(() -> load(p))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "tasklane.scheduler.punctuation-intervall: unknown setting; did you mean"
                + " 'tasklane.scheduler.punctuation-interval'?");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(),
                    new Properties(),
                    Map.of("TASKLANE_SCHEDULER_BOOTSTRAP_SERVER", "k:1")))
        .hasMessageStartingWith("tasklane.scheduler.bootstrap-server: unknown setting");
  }

  @Test
  void refusesAnUnknownGuaranteeNamingTheAllowedValuesAndABareDuration() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops:" + A + ":operator");
    p.put("tasklane.scheduler.processing-guarantee", "exactly_once");
    assertThatThrownBy(() -> load(p))
        .isInstanceOf(SchedulerException.class)
        .hasMessage(
            "tasklane.scheduler.processing-guarantee: 'exactly_once' must be one of"
                + " at_least_once, exactly_once_v2");
    p.put("tasklane.scheduler.processing-guarantee", "at_least_once");
    p.put("tasklane.scheduler.retention", "604800000");
    assertThatThrownBy(() -> load(p))
        .hasMessageStartingWith(
            "tasklane.scheduler.retention: '604800000' is not a duration: write a number and a"
                + " unit");
    p.put("tasklane.scheduler.retention", "P7D");
    assertThat(load(p).retention()).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void readsTheAlertRulesAndTheirWebhookAndRefusesAWebhookWithoutASecret() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops-alice:" + A + ":operator");
    p.put("tasklane.scheduler.alerts.webhook.url", "https://alerts.example.com/tasklane");
    p.put("tasklane.scheduler.alerts.webhook.secret", B);
    p.put("tasklane.scheduler.alerts.dead", "mail.send, report.build");
    p.put("tasklane.scheduler.alerts.no-worker", "*");
    p.put("tasklane.scheduler.alerts.relay-lag", "2m");
    p.put("tasklane.scheduler.alerts.backlog.threshold", "5_000");
    p.put("tasklane.scheduler.alerts.group-window", "30s");

    AlertConfig a = load(p).alerts();

    assertThat(a.webhookUrl()).hasToString("https://alerts.example.com/tasklane");
    assertThat(a.deadHandlers()).containsExactly("mail.send", "report.build");
    assertThat(a.deadAlerts("mail.send")).isTrue();
    assertThat(a.deadAlerts("other")).isFalse();
    assertThat(a.noWorkerAlerts("anything")).isTrue();
    assertThat(a.relayLag()).isEqualTo(Duration.ofMinutes(2));
    assertThat(a.backlog()).isEqualTo(new AlertConfig.Backlog(5_000, Duration.ofMinutes(1)));
    assertThat(a.groupWindow()).isEqualTo(Duration.ofSeconds(30));
    assertThat(load(p).toString()).doesNotContain(B);

    p.remove("tasklane.scheduler.alerts.webhook.secret");
    assertThatThrownBy(() -> load(p))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.alerts.webhook.secret: is required");
    p.put("tasklane.scheduler.alerts.webhok.url", "https://x.example.com");
    assertThatThrownBy(() -> load(p)).hasMessageContaining("tasklane.scheduler.alerts.webhok.url");
    assertThat(load(base2()).alerts()).isEqualTo(AlertConfig.NONE);
  }

  private static Map<String, Object> base2() {
    Map<String, Object> p = base();
    p.put("tasklane.scheduler.api.tokens", "ops-alice:" + A + ":operator");
    return p;
  }
}
