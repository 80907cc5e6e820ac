package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.micronaut.context.ApplicationContext;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.SchedulerException;
import io.tasklane.scheduler.Tokens;
import io.tasklane.scheduler.internal.ConfigLoader;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * Malformed token settings, read the way the scheduler reads them (the Micronaut configuration
 * through {@link ConfigLoader}): each is refused, and neither the message, nor any log line, nor
 * the configuration's logged form holds the secret or a six-character piece of it.
 */
class MalformedTokenSettingsTest {
  private static final String P = "tasklane.scheduler.";

  /** A strong token other than the one under test, so the rest of the setting is valid. */
  private static final String GOOD = Tokens.random();

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A strong token that also matches the name pattern (hex), to stand where a name goes. */
  private static String hex() {
    byte[] b = new byte[20];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** One case: the settings and the secrets in them, with whether pieces of them count too. */
  record Case(String label, Map<String, String> settings, List<String> secrets, boolean pieces) {
    @Override
    public String toString() {
      return label;
    }
  }

  private static Case tokens(String label, String list, String... secrets) {
    return new Case(label, Map.of(P + "api.tokens", list), List.of(secrets), true);
  }

  private static Case settings(String label, Map<String, String> settings, String... secrets) {
    return new Case(label, settings, List.of(secrets), true);
  }

  static Stream<Arguments> malformed() {
    String s = Tokens.random();
    String t = Tokens.random();
    String h = hex();
    String short12 = "Kq8Zt2Lm9Pw4";
    String run = "Kq8Zt2Lm9Pw4abcdefRv7Yx3Nb6Jh";
    String placeholder = "change-me-change-me-please-now";
    String spaced = "Kq8Zt2Lm9Pw4 Rv7Yx3Nb6JhUe8Vb0Qc";
    List<Case> cases =
        List.of(
            tokens("role left out", "ops:" + s, s),
            tokens("role left out of the second entry", "ci:" + GOOD + ":viewer,ops:" + s, s),
            tokens("unknown role", "ops:" + s + ":root", s),
            tokens("role and token swapped", "ops:admin:" + s, s),
            tokens("name and token swapped", s + ":ops:admin", s),
            tokens("name and token swapped, a hex token", h + ":ops:admin", h),
            tokens("a hex token as the name, a short token", h + ":" + short12 + ":admin", h),
            tokens("empty name", ":" + s + ":admin", s),
            tokens("extra field", "ops:" + s + ":admin:viewer", s),
            tokens("empty role", "ops:" + s + ":", s),
            tokens("a token holding ':'", "ops:" + s + ":" + t + ":admin", s, t),
            tokens("a token holding ','", "ops:" + s + "," + t + ":admin", s, t),
            tokens("a token holding whitespace", "ops:" + spaced + ":admin", spaced),
            tokens("a token alone", s, s),
            tokens("older form with a mistyped role", s + ":opertor", s),
            tokens("too short", "ops:" + short12 + ":admin", short12),
            tokens("a guessable run", "ops:" + run + ":admin", run),
            new Case(
                "a placeholder",
                Map.of(P + "api.tokens", "ops:" + placeholder + ":admin"),
                List.of(placeholder),
                false),
            settings("map: role left out", Map.of(P + "api.tokens.ops", s), s),
            settings("map: unknown role", Map.of(P + "api.tokens.ops", s + ":root"), s),
            settings("map: extra field", Map.of(P + "api.tokens.ops", s + ":admin:x"), s),
            settings("map: older form, mistyped role", Map.of(P + "api.tokens." + h, "opertor"), h),
            settings("mistyped key holding a token", Map.of(P + "api.token." + h, "viewer"), h),
            settings(
                "inter-instance token with a guessable run",
                Map.of(P + "api.tokens", "ops:" + GOOD + ":admin", P + "inter-instance-token", run),
                run),
            settings(
                "inter-instance token too short",
                Map.of(
                    P + "api.tokens",
                    "ops:" + GOOD + ":admin",
                    P + "inter-instance-token",
                    short12),
                short12),
            settings(
                "webhook secret with a guessable run",
                Map.of(
                    P + "api.tokens",
                    "ops:" + GOOD + ":admin",
                    P + "alerts.webhook.url",
                    "https://alerts.example.com/x",
                    P + "alerts.webhook.secret",
                    run),
                run),
            settings(
                "webhook URL with a password that is no URL",
                Map.of(
                    P + "api.tokens",
                    "ops:" + GOOD + ":admin",
                    P + "alerts.webhook.url",
                    "https://hook:" + s + "/" + t + "@alerts example.com/x",
                    P + "alerts.webhook.secret",
                    GOOD),
                s,
                t));
    return cases.stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedTokenSettingsAreRefusedAndNoMessageOrLogLineHoldsTheSecret(Case c) {
    List<String> logged = new ArrayList<>();
    Throwable thrown = captureLogs(logged, () -> load(c.settings()));

    assertThat(thrown).as(c.label()).isInstanceOf(SchedulerException.class);
    List<String> texts = new ArrayList<>(logged);
    for (Throwable e = thrown; e != null; e = e.getCause()) {
      texts.add(e.getMessage());
      texts.add(e.toString());
    }
    for (String text : texts) {
      for (String secret : c.secrets()) {
        assertThat(text).as(c.label()).doesNotContain(secret);
        if (c.pieces()) {
          for (int i = 0; i + 6 <= secret.length(); i++) {
            assertThat(text)
                .as(c.label() + ": a piece of the secret")
                .doesNotContain(secret.substring(i, i + 6));
          }
        }
      }
    }
    assertThat(thrown.getMessage()).as(c.label()).startsWith(P);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void acceptedTokenSettingsLogNoSecret(String label, Map<String, String> settings) {
    List<String> logged = new ArrayList<>();
    SchedulerConfig[] config = new SchedulerConfig[1];
    Throwable thrown = captureLogs(logged, () -> config[0] = load(settings));
    assertThat(thrown).as(label).isNull();
    logged.add(config[0].toString());
    logged.add(config[0].apiTokens().toString());
    logged.add(config[0].alerts().toString());
    for (String text : logged) {
      settings.values().stream()
          .flatMap(v -> Stream.of(v.split("[:,]")))
          .filter(v -> v.length() >= 24)
          .forEach(secret -> assertThat(text).as(label).doesNotContain(secret));
    }
  }

  static Stream<Arguments> accepted() {
    String s = Tokens.random();
    String t = Tokens.random();
    String u = Tokens.random();
    String w = Tokens.random();
    Map<String, String> all = new LinkedHashMap<>();
    all.put(P + "api.tokens", "ops:" + s + ":operator, " + t + ":viewer");
    all.put(P + "inter-instance-token", u);
    all.put(P + "alerts.webhook.url", "https://alerts.example.com/x");
    all.put(P + "alerts.webhook.secret", w);
    return Stream.of(
        Arguments.of("list, older form, inter-instance token and webhook secret", all),
        Arguments.of(
            "map by name and the older map form",
            Map.of(P + "api.tokens.ops", s + ":admin", P + "api.tokens." + hex(), "viewer")));
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "https://hooks.slack.com/services/T0001/B0002/{secret}",
        "https://discord.com/api/webhooks/123456789012345678/{secret}",
        "https://alerts.example.com/hook?sig={secret}",
        "https://hooks.slack.com/services/T0001/B0002/{secret}/^not-a-url"
      })
  void webhookUrlsWithASecretInThePathOrQueryAreNeverLoggedWithIt(String template) {
    String secret = Tokens.random().replaceAll("[^A-Za-z0-9]", "x");
    String url = template.replace("{secret}", secret);
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(P + "api.tokens", "ops:" + GOOD + ":admin");
    settings.put(P + "alerts.webhook.url", url);
    settings.put(P + "alerts.webhook.secret", Tokens.random());
    List<String> logged = new ArrayList<>();
    SchedulerConfig[] config = new SchedulerConfig[1];
    Throwable thrown = captureLogs(logged, () -> config[0] = load(settings));
    if (thrown == null) {
      logged.add(config[0].toString());
      logged.add(config[0].alerts().toString());
    } else {
      assertThat(thrown).isInstanceOf(SchedulerException.class);
      logged.add(thrown.toString());
    }
    assertThat(String.join("\n", logged)).contains("***");
    for (String text : logged) {
      assertThat(text).doesNotContain(secret);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void theOlderTwoFieldFormIsAcceptedOnlyWithARole(String label, Map<String, String> settings) {
    SchedulerConfig c = load(settings);
    assertThat(c.apiTokens()).as(label).hasSize(2);
    assertThat(c.apiTokens())
        .filteredOn(tk -> tk.name().startsWith("token-"))
        .singleElement()
        .extracting(ApiToken::role)
        .isEqualTo(Role.VIEWER);
  }

  /** The scheduler's own reading: the Micronaut configuration as the file layer. */
  private static SchedulerConfig load(Map<String, String> settings) {
    Map<String, Object> p = new LinkedHashMap<>(settings);
    p.put(P + "bootstrap-servers", "k1:9092");
    try (ApplicationContext ctx = ApplicationContext.builder().properties(p).build()) {
      return ConfigLoader.load(
          ConfigLoader.fileLayer(ctx.getEnvironment().start()), new Properties(), Map.of());
    }
  }

  /**
   * Runs {@code action} with every log line (message and stack trace) collected into {@code into}.
   */
  private static Throwable captureLogs(List<String> into, Runnable action) {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    root.addAppender(lines);
    Throwable thrown;
    try {
      thrown = catchThrowable(action::run);
    } finally {
      root.detachAppender(lines);
    }
    for (ILoggingEvent e : lines.list) {
      into.add(e.getFormattedMessage());
      if (e.getThrowableProxy() != null) {
        into.add(ThrowableProxyUtil.asString(e.getThrowableProxy()));
      }
    }
    return thrown;
  }
}
