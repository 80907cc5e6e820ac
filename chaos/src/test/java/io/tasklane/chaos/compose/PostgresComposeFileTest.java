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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * compose/docker-compose.postgres.yml, checked like {@link ComposeFileTest} checks the MariaDB file
 * (no Docker here): PostgreSQL with logical WAL and the shipped PostgreSQL schema files, a relay
 * whose settings are a valid {@code connector=postgresql} RelayConfig on that database, scheduler
 * and worker keys the apps know, every secret required from the environment, and the app images
 * built from the same contexts and Dockerfiles as the MariaDB file, on the same ports.
 */
class PostgresComposeFileTest {
  private static final Path FILE =
      ComposeFileTest.COMPOSE_DIR.resolve("docker-compose.postgres.yml");

  @SuppressWarnings("unchecked")
  private static Map<String, Object> services(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file)) {
      Map<String, Object> doc = new Yaml().load(r);
      return (Map<String, Object>) doc.get("services");
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> service(String name) throws IOException {
    return (Map<String, Object>) services(FILE).get(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> env(String name) throws IOException {
    return ((Map<String, Object>) service(name).get("environment"))
        .entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue())));
  }

  @SuppressWarnings("unchecked")
  private static List<String> list(String name, String key) throws IOException {
    return ((List<Object>) service(name).get(key)).stream().map(String::valueOf).toList();
  }

  private static String advertisedKafka() throws IOException {
    return ComposeFileTest.advertisedKafka(FILE.getFileName().toString());
  }

  @Test
  void hasPostgresKafkaAndTheThreeApps() throws IOException {
    assertThat(services(FILE))
        .containsOnlyKeys(
            "postgres", "kafka", "kafka-users", "kafka-acls", "relay", "scheduler", "worker");
    assertThat(advertisedKafka()).isEqualTo("kafka:9092");
  }

  @Test
  void postgresHasLogicalWalAndTheShippedPostgresSchemaFiles() throws IOException {
    assertThat(list("postgres", "command")).contains("wal_level=logical");
    List<String> files =
        list("postgres", "volumes").stream().filter(v -> v.startsWith("../")).toList();
    assertThat(files).hasSize(3);
    for (String volume : files) {
      Path host =
          ComposeFileTest.COMPOSE_DIR.resolve(volume.substring(0, volume.indexOf(':'))).normalize();
      assertThat(host).as(volume).isRegularFile();
      String ddl = Files.readString(host).replaceAll("(?m)^--.*$", "");
      assertThat(ddl)
          .as(volume)
          .contains("CREATE TABLE")
          .doesNotContain("AUTO_INCREMENT", "ENGINE=");
    }
    assertThat(files)
        .anyMatch(v -> v.contains("tasklane_outbox.postgresql.sql"))
        .anyMatch(v -> v.contains("demo_tables.postgresql.sql"));
  }

  @Test
  void relaySettingsAreAPostgresRelayConfigOnThatDatabase() throws IOException {
    RelayConfig config = RelayConfigLoader.load(null, new Properties(), env("relay"));
    assertThat(config.connector()).isEqualTo(RelayConfig.ConnectorKind.POSTGRESQL);
    assertThat(config.postgres()).isTrue();
    assertThat(config.bootstrapServers()).isEqualTo(advertisedKafka());
    assertThat(list("relay", "ports"))
        .contains("127.0.0.1:" + config.httpPort() + ":" + config.httpPort());
    assertSameDatabase(config.jdbcUrl(), config.username());
  }

  @Test
  void schedulerAndWorkerSettingsAreKeysTheAppsKnow() throws IOException {
    Set<String> scheduler = ComposeFileTest.keysOf(SchedulerConfig.class.getRecordComponents());
    scheduler.add("api-tokens");
    ComposeFileTest.assertKnown(env("scheduler"), "TASKLANE_SCHEDULER_", scheduler);
    Set<String> worker = ComposeFileTest.keysOf(WorkerConfig.class.getRecordComponents());
    worker.addAll(Set.of("namespace", "name", "group-id", "enabled"));
    Map<String, String> workerEnv = env("worker");
    ComposeFileTest.assertKnown(workerEnv, "TASKLANE_WORKER_", worker);
    assertThat(workerEnv.get("TASKLANE_WORKER_BOOTSTRAP_SERVERS")).isEqualTo(advertisedKafka());
    assertSameDatabase(
        workerEnv.get("DATASOURCES_DEFAULT_URL"), workerEnv.get("DATASOURCES_DEFAULT_USERNAME"));
  }

  @Test
  void everySecretComesFromTheEnvironmentAndIsRequired() throws IOException {
    Pattern secretKey = Pattern.compile(".*(PASSWORD|TOKEN|SECRET|JAAS).*");
    int secrets = 0;
    for (String name : services(FILE).keySet()) {
      if (service(name).get("environment") == null) {
        continue;
      }
      for (var e : env(name).entrySet()) {
        if (secretKey.matcher(e.getKey()).matches()) {
          secrets++;
          ComposeFileTest.assertRequiredSecret(name + " " + e.getKey(), e.getValue());
        }
      }
    }
    assertThat(secrets).as("secret settings found").isEqualTo(13);
  }

  /**
   * The same images as the MariaDB file: build context, Dockerfile, tag, exposed and published
   * port.
   */
  @Test
  void appServicesAreBuiltLikeTheMariaDbFileAndPublishTheirPorts() throws IOException {
    Map<String, Object> mariaDb =
        services(ComposeFileTest.COMPOSE_DIR.resolve("docker-compose.yml"));
    for (ComposeFileTest.App app : ComposeFileTest.APPS) {
      @SuppressWarnings("unchecked")
      Map<String, Object> other = (Map<String, Object>) mariaDb.get(app.service());
      assertThat(service(app.service()).get("build"))
          .as(app.service())
          .isEqualTo(other.get("build"));
      assertThat(service(app.service()).get("image"))
          .as(app.service())
          .isEqualTo(other.get("image"));
      String port = env(app.service()).get(app.portSetting());
      assertThat(ComposeFileTest.dockerfile(app)).as(app.dockerfile()).contains("EXPOSE " + port);
      assertThat(list(app.service(), "ports")).contains("127.0.0.1:" + port + ":" + port);
    }
  }

  private static void assertSameDatabase(String jdbcUrl, String user) throws IOException {
    Map<String, String> pg = env("postgres");
    assertThat(jdbcUrl).isEqualTo("jdbc:postgresql://postgres:5432/" + pg.get("POSTGRES_DB"));
    assertThat(user).isEqualTo(pg.get("POSTGRES_USER"));
  }
}
