package io.tasklane.chaos.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.RelayConfigLoader;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.worker.WorkerConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * compose/docker-compose.yml cannot run on machines without Docker, so this test checks it against
 * the apps themselves: every Tasklane setting it passes is one the app knows, ports and listeners
 * line up, the database settings agree, and the mounted schema files exist.
 */
class ComposeFileTest {
  static final Path COMPOSE_DIR = Path.of("").toAbsolutePath().getParent().resolve("compose");

  @SuppressWarnings("unchecked")
  static Map<String, Object> services() throws IOException {
    try (Reader r = Files.newBufferedReader(COMPOSE_DIR.resolve("docker-compose.yml"))) {
      Map<String, Object> doc = new Yaml().load(r);
      return (Map<String, Object>) doc.get("services");
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> env(String service) throws IOException {
    var svc = (Map<String, Object>) services().get(service);
    return ((Map<String, Object>) svc.get("environment"))
        .entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue())));
  }

  @SuppressWarnings("unchecked")
  static List<String> list(String service, String key) throws IOException {
    var svc = (Map<String, Object>) services().get(service);
    return ((List<Object>) svc.get(key)).stream().map(String::valueOf).toList();
  }

  @Test
  void hasTheWholeStack() throws IOException {
    assertThat(services())
        .containsKeys("mysql", "kafka", "relay", "scheduler", "worker", "kafka-ui");
  }

  @Test
  void mysqlHasRowBinlogWithFullImageAndGtidAndTheSchemaFiles() throws IOException {
    assertThat(list("mysql", "command"))
        .contains("--binlog-format=ROW", "--binlog-row-image=FULL", "--gtid-mode=ON");
    for (String volume : list("mysql", "volumes")) {
      Path host = COMPOSE_DIR.resolve(volume.substring(0, volume.indexOf(':'))).normalize();
      assertThat(host).as(volume).isRegularFile();
    }
  }

  @Test
  void relaySettingsAreValidRelayConfig() throws IOException {
    RelayConfig config = RelayConfigLoader.load(null, new Properties(), env("relay"));
    assertThat(config.bootstrapServers()).isEqualTo(advertisedKafka());
    assertThat(list("relay", "ports")).contains(config.httpPort() + ":" + config.httpPort());
    assertSameDatabase(config.jdbcUrl(), config.username());
  }

  @Test
  void schedulerSettingsAreSchedulerKeys() throws IOException {
    Set<String> known = keysOf(SchedulerConfig.class.getRecordComponents());
    known.add("api-tokens");
    Map<String, String> env = env("scheduler");
    assertKnown(env, "TASKLANE_SCHEDULER_", known);
    assertThat(env.get("TASKLANE_SCHEDULER_BOOTSTRAP_SERVERS")).isEqualTo(advertisedKafka());
    String port = env.get("MICRONAUT_SERVER_PORT");
    assertThat(list("scheduler", "ports")).contains(port + ":" + port);
  }

  @Test
  void workerSettingsAreWorkerKeys() throws IOException {
    Set<String> known = keysOf(WorkerConfig.class.getRecordComponents());
    known.addAll(Set.of("namespace", "name", "group-id", "enabled"));
    Map<String, String> env = env("worker");
    assertKnown(env, "TASKLANE_WORKER_", known);
    assertThat(env.get("TASKLANE_WORKER_BOOTSTRAP_SERVERS")).isEqualTo(advertisedKafka());
    assertSameDatabase(env.get("DATASOURCES_DEFAULT_URL"), env.get("DATASOURCES_DEFAULT_USERNAME"));
  }

  /**
   * No password or token has a value in the file: each is {@code ${VAR:?message}}, so compose
   * refuses to start until the operator sets it (there is nothing guessable to deploy by mistake).
   */
  @Test
  void everySecretComesFromTheEnvironmentAndIsRequired() throws IOException {
    Pattern secretKey = Pattern.compile(".*(PASSWORD|TOKEN|SECRET|JAAS).*");
    Pattern required = Pattern.compile("\\$\\{[A-Z][A-Z0-9_]*:\\?[^}]+}");
    int secrets = 0;
    for (String service : services().keySet()) {
      @SuppressWarnings("unchecked")
      var svc = (Map<String, Object>) services().get(service);
      if (svc.get("environment") == null) {
        continue;
      }
      for (var e : env(service).entrySet()) {
        if (secretKey.matcher(e.getKey()).matches()) {
          secrets++;
          assertThat(e.getValue()).as(service + " " + e.getKey()).matches(required);
        }
      }
    }
    assertThat(secrets).as("secret settings found").isGreaterThanOrEqualTo(5);
    @SuppressWarnings("unchecked")
    var health =
        (Map<String, Object>) ((Map<String, Object>) services().get("mysql")).get("healthcheck");
    assertThat(String.valueOf(health.get("test"))).contains("$$MYSQL_ROOT_PASSWORD");
  }

  static void assertKnown(Map<String, String> env, String prefix, Set<String> known) {
    env.keySet().stream()
        .filter(k -> k.startsWith(prefix))
        .map(k -> k.substring(prefix.length()).toLowerCase(Locale.ROOT).replace('_', '-'))
        .forEach(key -> assertThat(known).as("setting " + prefix + key).contains(key));
  }

  static Set<String> keysOf(java.lang.reflect.RecordComponent[] components) {
    return Arrays.stream(components)
        .map(c -> c.getName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT))
        .collect(Collectors.toCollection(HashSet::new));
  }

  static String advertisedKafka() throws IOException {
    String listeners = env("kafka").get("KAFKA_ADVERTISED_LISTENERS");
    String plaintext =
        Arrays.stream(listeners.split(","))
            .filter(l -> l.startsWith("PLAINTEXT://"))
            .findFirst()
            .orElseThrow();
    return plaintext.substring("PLAINTEXT://".length());
  }

  static void assertSameDatabase(String jdbcUrl, String user) throws IOException {
    Map<String, String> mysql = env("mysql");
    assertThat(jdbcUrl).endsWith("mysql:3306/" + mysql.get("MYSQL_DATABASE"));
    assertThat(user).isEqualTo(mysql.get("MYSQL_USER"));
  }
}
