package io.tasklane.chaos.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.AclTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

/**
 * What the compose stacks expose to the network (no Docker here, so the files are read): every port
 * is published on 127.0.0.1 only, Kafka's listeners reachable from outside its container
 * authenticate with SCRAM and authorize with ACLs, every app has a principal of its own with the
 * ACLs {@code bin/kafka-acls-tasklane} grants, every image is pinned to an exact version, no secret
 * has a value in a file, and no unauthenticated UI is started.
 */
class ComposeSecurityTest {
  static final Path DIR = ComposeFileTest.COMPOSE_DIR;
  static final Pattern REQUIRED = Pattern.compile(ComposeFileTest.REQUIRED);

  /**
   * An exact version: major.minor.patch with an optional suffix ({@code 17.0.16_8-jre}), or, for
   * PostgreSQL, whose versions have had two parts since 10, major.minor.
   */
  static final Pattern EXACT_TAG =
      Pattern.compile("[\\w./-]+:v?\\d+\\.\\d+\\.\\d+([_.-][\\w.-]+)?|postgres:\\d+\\.\\d+");

  static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required";

  /** The apps, the prefix of their Kafka pass-through settings and their principal. */
  static final Map<String, String> KAFKA_PREFIX =
      Map.of(
          "relay", "TASKLANE_RELAY_KAFKA_",
          "scheduler", "TASKLANE_SCHEDULER_KAFKA_",
          "worker", "TASKLANE_WORKER_KAFKA_");

  @SuppressWarnings("unchecked")
  static Map<String, Object> doc(String file) throws IOException {
    try (Reader r = Files.newBufferedReader(DIR.resolve(file))) {
      return new Yaml().load(r);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Map<String, Object>> services(String file) throws IOException {
    return (Map<String, Map<String, Object>>) doc(file).get("services");
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> env(Map<String, Object> service) {
    Map<String, String> env = new HashMap<>();
    var raw = (Map<String, Object>) service.getOrDefault("environment", Map.of());
    raw.forEach((k, v) -> env.put(k, String.valueOf(v)));
    return env;
  }

  /**
   * The broker's settings: the server.properties compose mounts into the kafka service, then its
   * {@code KAFKA_*} environment as the image maps it ({@code KAFKA_A_B} is {@code a.b}).
   */
  @SuppressWarnings("unchecked")
  static Properties kafka(String file) throws IOException {
    Map<String, Object> kafka = services(file).get("kafka");
    Properties p = new Properties();
    for (Object mount : (List<Object>) kafka.getOrDefault("volumes", List.of())) {
      String host = String.valueOf(mount).split(":")[0];
      if (host.endsWith("server.properties")) {
        try (Reader r = Files.newBufferedReader(DIR.resolve(host))) {
          p.load(r);
        }
      }
    }
    env(kafka)
        .forEach(
            (k, v) -> {
              if (k.startsWith("KAFKA_")) {
                p.setProperty(k.substring(6).toLowerCase(Locale.ROOT).replace('_', '.'), v);
              }
            });
    return p;
  }

  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  @SuppressWarnings("unchecked")
  void everyPortIsPublishedOnLoopbackOnly(String file) throws IOException {
    int published = 0;
    for (var s : services(file).entrySet()) {
      for (Object port : (List<Object>) s.getValue().getOrDefault("ports", List.of())) {
        published++;
        if (port instanceof Map<?, ?> longForm) {
          assertThat(longForm.get("host_ip")).as(s.getKey() + " " + port).isEqualTo("127.0.0.1");
        } else {
          assertThat(String.valueOf(port))
              .as(file + ": " + s.getKey() + " publishes " + port)
              .matches("127\\.0\\.0\\.1:\\d+:\\d+");
        }
      }
      assertThat(s.getValue()).as(s.getKey()).doesNotContainKey("network_mode");
    }
    assertThat(published).isGreaterThanOrEqualTo(5);
  }

  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  void noPlaintextKafkaListenerIsReachableFromOutsideTheBrokersContainer(String file)
      throws IOException {
    Properties p = kafka(file);
    Map<String, String> protocols = new HashMap<>();
    for (String pair : p.getProperty("listener.security.protocol.map", "").split(",")) {
      String[] kv = pair.split(":");
      protocols.put(kv[0].strip(), kv[1].strip());
    }
    List<String> listeners = Arrays.asList(p.getProperty("listeners", "").split(","));
    assertThat(listeners).as(file + " listeners").isNotEmpty();
    for (String listener : listeners) {
      String name = listener.substring(0, listener.indexOf(':')).strip();
      String host = listener.substring(listener.indexOf("//") + 2, listener.lastIndexOf(':'));
      String protocol = protocols.getOrDefault(name, name);
      if (!protocol.startsWith("SASL_")) {
        assertThat(host)
            .as(file + ": listener " + listener + " (" + protocol + ") must be on loopback")
            .isIn("localhost", "127.0.0.1");
      }
    }
    for (String listener : p.getProperty("advertised.listeners").split(",")) {
      String name = listener.substring(0, listener.indexOf(':')).strip();
      assertThat(protocols.get(name)).as(file + ": advertised " + listener).startsWith("SASL_");
    }
    assertThat(p.getProperty("sasl.enabled.mechanisms")).isEqualTo("SCRAM-SHA-512");
    assertThat(p.getProperty("authorizer.class.name"))
        .isEqualTo("org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    assertThat(p.getProperty("allow.everyone.if.no.acl.found")).isEqualTo("false");
    assertThat(p.getProperty("super.users")).doesNotContain("relay", "scheduler", "worker");
  }

  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  void everyAppConnectsWithItsOwnScramPrincipalWhosePasswordIsRequired(String file)
      throws IOException {
    Map<String, Map<String, Object>> services = services(file);
    for (var app : KAFKA_PREFIX.entrySet()) {
      Map<String, String> env = env(services.get(app.getKey()));
      String prefix = app.getValue();
      assertThat(env)
          .as(file + " " + app.getKey())
          .containsEntry(prefix + "SECURITY_PROTOCOL", "SASL_PLAINTEXT")
          .containsEntry(prefix + "SASL_MECHANISM", "SCRAM-SHA-512");
      String jaas = env.get(prefix + "SASL_JAAS_CONFIG");
      Matcher m =
          Pattern.compile(Pattern.quote(JAAS) + " username=\"(\\w+)\" password=\"([^\"]+)\";")
              .matcher(String.valueOf(jaas));
      assertThat(m.matches()).as(file + " " + app.getKey() + " JAAS: " + jaas).isTrue();
      assertThat(m.group(1)).as(file + " " + app.getKey() + " principal").isEqualTo(app.getKey());
      assertThat(m.group(2)).as(file + " " + app.getKey() + " password").matches(REQUIRED);
    }
  }

  /**
   * The init service creates a SCRAM user per app and then runs {@code bin/kafka-acls-tasklane}'s
   * class for each with the names the apps use; the apps wait until it has succeeded. Each ACL
   * command line is a valid one (run here with {@code --dry-run}), and the worker's lists every
   * handler the example worker registers.
   */
  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  @SuppressWarnings("unchecked")
  void anInitServiceCreatesEachAppsUserAndItsMinimalAclsBeforeTheAppsStart(String file)
      throws Exception {
    Map<String, Map<String, Object>> services = services(file);
    Map<String, List<String>> acls = aclCommands();
    assertThat(acls).containsOnlyKeys("relay", "scheduler", "worker");
    for (var e : acls.entrySet()) {
      List<String> args = new ArrayList<>(e.getValue());
      assertThat(args).containsSequence("--principal", "User:" + e.getKey());
      args.add("--dry-run");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(AclTool.run(args.toArray(String[]::new), new PrintStream(out, true, "UTF-8")))
          .isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("User:" + e.getKey());
    }
    assertThat(acls.get("relay")).containsSequence("--name", "tasklane_relay_shop");
    String handlers = acls.get("worker").get(acls.get("worker").indexOf("--handlers") + 1);
    assertThat(Arrays.asList(handlers.split(","))).containsAll(ExampleHandlers.names());
    String users = Files.readString(DIR.resolve("kafka/create-users.sh"));
    for (String app : KAFKA_PREFIX.keySet()) {
      assertThat(users).contains("user " + app + " ");
      var dependsOn = (Map<String, Object>) services.get(app).get("depends_on");
      assertThat(dependsOn)
          .as(file + " " + app + " waits for the ACLs")
          .containsEntry("kafka-acls", Map.of("condition", "service_completed_successfully"));
    }
    var aclService = services.get("kafka-acls");
    assertThat((Map<String, Object>) aclService.get("depends_on"))
        .containsEntry("kafka-users", Map.of("condition", "service_completed_successfully"));
  }

  /** The argument lists of the {@code acl --role …} lines of compose/kafka/create-acls.sh. */
  static Map<String, List<String>> aclCommands() throws IOException {
    Map<String, List<String>> commands = new HashMap<>();
    for (String line : Files.readAllLines(DIR.resolve("kafka/create-acls.sh"))) {
      String l = line.strip();
      if (l.startsWith("acl --")) {
        List<String> args = List.of(l.substring(4).strip().split("\\s+"));
        commands.put(args.get(args.indexOf("--role") + 1), args);
      }
    }
    return commands;
  }

  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  void everyImageIsPinnedToAnExactVersion(String file) throws IOException {
    for (var s : services(file).entrySet()) {
      String image = String.valueOf(s.getValue().get("image"));
      assertThat(image).as(file + ": " + s.getKey()).matches(EXACT_TAG).doesNotContain("latest");
    }
    try (Stream<Path> dockerfiles = Files.list(DIR.resolve("docker"))) {
      for (Path d : dockerfiles.filter(f -> f.toString().endsWith("Dockerfile")).toList()) {
        for (String line : Files.readAllLines(d)) {
          if (line.startsWith("FROM ")) {
            assertThat(line.substring(5).strip()).as(d.getFileName() + " FROM").matches(EXACT_TAG);
          }
        }
      }
    }
  }

  /**
   * No file holds a secret: every {@code ${…}} in the compose files is required ({@code :?}), never
   * defaulted ({@code :-}, {@code -}), and the broker scripts take every password from the
   * environment.
   */
  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  void noVariableHasADefaultAndNoScriptHoldsAPassword(String file) throws IOException {
    String text = Files.readString(DIR.resolve(file));
    Matcher vars = Pattern.compile("(?<!\\$)\\$\\{[^}]*}").matcher(text);
    int n = 0;
    while (vars.find()) {
      n++;
      assertThat(vars.group()).as(file).matches(REQUIRED);
    }
    assertThat(n).isGreaterThanOrEqualTo(5);
    assertThat(text).doesNotContainPattern("(?i)password\\s*[=:]\\s*\"?[A-Za-z0-9]");
    try (Stream<Path> scripts = Files.list(DIR.resolve("kafka"))) {
      for (Path script : scripts.toList()) {
        String s = Files.readString(script);
        assertThat(s)
            .as(script.getFileName().toString())
            .doesNotContainPattern("(?i)password=\\\\?\"?[A-Za-z0-9]")
            .doesNotContainPattern(":-[^}]*}");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.postgres.yml"})
  void noUnauthenticatedKafkaUi(String file) throws IOException {
    for (var s : services(file).entrySet()) {
      assertThat(s.getKey() + " " + s.getValue().get("image"))
          .as(file)
          .doesNotContainIgnoringCase("kafka-ui")
          .doesNotContainIgnoringCase("akhq")
          .doesNotContainIgnoringCase("kafdrop");
    }
  }
}
