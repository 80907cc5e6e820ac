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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * compose/docker-compose.yml cannot run on machines without Docker, so this test checks it against
 * the apps themselves: every Tasklane setting it passes is one the app knows, ports and listeners
 * line up, the database settings agree, and the mounted files exist. The app images' Dockerfiles
 * (compose/docker) are checked against what the Maven build produces: build contexts, Dockerfiles,
 * the distributions they copy, the jar they start, the ports they expose and Prometheus scrapes.
 */
class ComposeFileTest {
  static final Path HOME = Path.of("").toAbsolutePath().getParent();
  static final Path COMPOSE_DIR = HOME.resolve("compose");

  /** A value compose must be given: {@code ${VAR:?message}}. */
  static final String REQUIRED = "\\$\\{[A-Z][A-Z0-9_]*:\\?[^}]+}";

  /** Each app service: its Dockerfile, its module and the setting that holds its HTTP port. */
  record App(String service, String dockerfile, String module, String portSetting, String path) {}

  static final List<App> APPS =
      List.of(
          new App("relay", "relay.Dockerfile", "cdc-relay", "TASKLANE_RELAY_HTTP_PORT", "/metrics"),
          new App(
              "scheduler",
              "scheduler.Dockerfile",
              "scheduler-streams",
              "MICRONAUT_SERVER_PORT",
              "/prometheus"),
          new App(
              "worker", "worker.Dockerfile", "examples", "MICRONAUT_SERVER_PORT", "/prometheus"));

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
        .containsKeys(
            "mysql",
            "kafka",
            "kafka-users",
            "kafka-acls",
            "relay",
            "scheduler",
            "worker",
            "prometheus",
            "grafana");
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
    assertThat(config.kafka())
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsKey("sasl.jaas.config");
    assertThat(list("relay", "ports"))
        .contains("127.0.0.1:" + config.httpPort() + ":" + config.httpPort());
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
    assertThat(list("scheduler", "ports")).contains("127.0.0.1:" + port + ":" + port);
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
   * No password or token has a value in the file: each is {@code ${VAR:?message}} (in a JAAS line,
   * its password), so compose refuses to start until the operator sets it (there is nothing
   * guessable to deploy by mistake).
   */
  @Test
  void everySecretComesFromTheEnvironmentAndIsRequired() throws IOException {
    Pattern secretKey = Pattern.compile(".*(PASSWORD|TOKEN|SECRET|JAAS).*");
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
          assertRequiredSecret(service + " " + e.getKey(), e.getValue());
        }
      }
    }
    assertThat(secrets).as("secret settings found").isGreaterThanOrEqualTo(15);
    @SuppressWarnings("unchecked")
    var health =
        (Map<String, Object>) ((Map<String, Object>) services().get("mysql")).get("healthcheck");
    assertThat(String.valueOf(health.get("test"))).contains("$$MYSQL_ROOT_PASSWORD");
  }

  @Test
  void everyAppServiceIsBuiltFromAnExistingContextAndDockerfileAndTaggedWithTheBuildVersion()
      throws IOException {
    for (App app : APPS) {
      Map<String, Object> build = build(app.service());
      Path context = COMPOSE_DIR.resolve(String.valueOf(build.get("context"))).normalize();
      assertThat(context).as(app.service() + " build context").isEqualTo(HOME);
      Path dockerfile = context.resolve(String.valueOf(build.get("dockerfile"))).normalize();
      assertThat(dockerfile)
          .as(app.service() + " dockerfile")
          .isRegularFile()
          .isEqualTo(COMPOSE_DIR.resolve("docker").resolve(app.dockerfile()));
      assertThat(service(app.service()).get("image"))
          .as(app.service() + " image")
          .asString()
          .endsWith(":" + version(app.module()));
    }
  }

  /**
   * Each Dockerfile copies the distribution the module's Maven build leaves unpacked in {@code
   * target/} (assembly format {@code dir}), starts the jar that distribution holds (whose manifest
   * names the app's main class), and its dockerignore lets that directory into the context.
   */
  @Test
  void dockerfilesCopyTheDistributionTheMavenBuildProducesAndStartItsJar() throws IOException {
    for (App app : APPS) {
      Path moduleDir = HOME.resolve(app.module());
      String pom = Files.readString(moduleDir.resolve("pom.xml"));
      String artifactId = artifactId(pom);
      String version = version(app.module());
      assertThat(pom).as(app.module() + " pom").contains("<artifactId>maven-assembly-plugin");
      assertThat(pom).as(app.module() + " pom").contains("<addClasspath>true</addClasspath>");
      Matcher main = Pattern.compile("<mainClass>([\\w.]+)</mainClass>").matcher(pom);
      assertThat(main.find()).as(app.module() + " Main-Class").isTrue();
      assertThat(moduleDir.resolve("src/main/java/" + main.group(1).replace('.', '/') + ".java"))
          .isRegularFile();
      String assembly = Files.readString(moduleDir.resolve("src/assembly/dist.xml"));
      assertThat(assembly)
          .as(app.module() + " dist.xml")
          .contains("<format>dir</format>")
          .contains("<id>dist</id>")
          .contains("<baseDirectory>${project.build.finalName}</baseDirectory>")
          .contains("<outputFileNameMapping>${project.build.finalName}.jar</outputFileNameMapping>")
          .contains("<outputDirectory>lib</outputDirectory>");

      List<String> lines = dockerfile(app);
      Map<String, String> args = new java.util.HashMap<>();
      for (String line : lines) {
        Matcher arg = Pattern.compile("^ARG (\\w+)=(\\S+)$").matcher(line);
        if (arg.matches()) {
          args.put(arg.group(1), arg.group(2));
        }
      }
      assertThat(args).as(app.dockerfile() + " ARG VERSION").containsEntry("VERSION", version);
      assertThat(lines)
          .as(app.dockerfile())
          .anyMatch(l -> l.matches("FROM eclipse-temurin:17\\.\\d+\\.\\d+_\\d+-jre"));
      String distDir =
          app.module()
              + "/target/"
              + artifactId
              + "-"
              + version
              + "-dist/"
              + artifactId
              + "-"
              + version
              + "/";
      List<String> copies =
          lines.stream()
              .filter(l -> l.startsWith("COPY "))
              .map(l -> substitute(l.split("\\s+")[1], args))
              .toList();
      assertThat(copies).as(app.dockerfile() + " COPY sources").containsExactly(distDir);
      String jar = "/opt/tasklane/" + artifactId + "-" + version + ".jar";
      assertThat(lines.stream().map(l -> substitute(l, args)))
          .as(app.dockerfile())
          .contains("RUN ln -s " + jar + " /opt/tasklane/app.jar")
          .contains("ENTRYPOINT [\"java\", \"-jar\", \"/opt/tasklane/app.jar\"]");
      Path built = HOME.resolve(distDir);
      if (Files.isDirectory(built)) { // after ./mvnw install: the very files the image gets
        assertThat(built.resolve(artifactId + "-" + version + ".jar")).isRegularFile();
        assertThat(built.resolve("lib")).isDirectory();
      }
      List<String> ignore =
          Files.readAllLines(
              COMPOSE_DIR.resolve("docker").resolve(app.dockerfile() + ".dockerignore"));
      assertThat(ignore).as(app.dockerfile() + ".dockerignore").contains("*");
      assertThat(
              ignore.stream()
                  .filter(l -> l.startsWith("!"))
                  .map(
                      l ->
                          java.nio.file.FileSystems.getDefault()
                              .getPathMatcher("glob:" + l.substring(1).replaceAll("/$", "")))
                  .anyMatch(
                      m -> m.matches(Path.of(distDir.substring(0, distDir.indexOf("-dist/") + 5)))))
          .as(app.dockerfile() + ".dockerignore lets " + distDir + " in")
          .isTrue();
    }
  }

  /**
   * The port each Dockerfile exposes is the one the service's app is configured with, the one
   * compose publishes, and the one Prometheus scrapes on the path the app serves its metrics.
   */
  @Test
  @SuppressWarnings("unchecked")
  void exposedPortsLineUpWithTheAppsSettingsThePublishedPortsAndPrometheusTargets()
      throws IOException {
    Map<String, Object> prometheus;
    try (Reader r = Files.newBufferedReader(COMPOSE_DIR.resolve("prometheus/prometheus.yml"))) {
      prometheus = new Yaml().load(r);
    }
    Map<String, String> targets = new java.util.HashMap<>();
    for (Map<String, Object> job : (List<Map<String, Object>>) prometheus.get("scrape_configs")) {
      for (Map<String, Object> sc : (List<Map<String, Object>>) job.get("static_configs")) {
        for (Object target : (List<Object>) sc.get("targets")) {
          targets.put(String.valueOf(target), String.valueOf(job.get("metrics_path")));
        }
      }
    }
    for (App app : APPS) {
      String port = env(app.service()).get(app.portSetting());
      assertThat(port).as(app.service() + " " + app.portSetting()).isNotNull();
      assertThat(dockerfile(app)).as(app.dockerfile()).contains("EXPOSE " + port);
      assertThat(list(app.service(), "ports")).contains("127.0.0.1:" + port + ":" + port);
      assertThat(targets)
          .as("prometheus target of " + app.service())
          .containsEntry(app.service() + ":" + port, app.path());
    }
    assertThat(targets).hasSize(APPS.size());
    List<String> rules = (List<String>) prometheus.get("rule_files");
    for (String mount : list("prometheus", "volumes")) {
      String[] parts = mount.split(":");
      if (parts[0].startsWith("./")) {
        assertThat(COMPOSE_DIR.resolve(parts[0]).normalize()).as(mount).isRegularFile();
      }
    }
    assertThat(list("prometheus", "volumes"))
        .anyMatch(v -> v.contains(":" + rules.get(0) + ":"))
        .anyMatch(v -> v.startsWith("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml"));
    assertThat(list("prometheus", "ports")).contains("127.0.0.1:9090:9090");
  }

  /**
   * The scheduler answers {@code /prometheus} to its API tokens only: Prometheus sends a bearer
   * token read from a compose secret whose value comes from the environment (none in the file).
   */
  @Test
  @SuppressWarnings("unchecked")
  void prometheusScrapesTheSchedulerWithATokenFromTheEnvironment() throws IOException {
    Map<String, Object> prometheus;
    try (Reader r = Files.newBufferedReader(COMPOSE_DIR.resolve("prometheus/prometheus.yml"))) {
      prometheus = new Yaml().load(r);
    }
    Map<String, Object> scheduler =
        ((List<Map<String, Object>>) prometheus.get("scrape_configs"))
            .stream()
                .filter(j -> "tasklane-scheduler".equals(j.get("job_name")))
                .findFirst()
                .orElseThrow();
    var auth = (Map<String, Object>) scheduler.get("authorization");
    assertThat(auth).containsEntry("type", "Bearer");
    String file = String.valueOf(auth.get("credentials_file"));
    assertThat(file).startsWith("/run/secrets/");
    String secret = file.substring("/run/secrets/".length());
    assertThat(list("prometheus", "secrets")).contains(secret);
    Map<String, Object> doc;
    try (Reader r = Files.newBufferedReader(COMPOSE_DIR.resolve("docker-compose.yml"))) {
      doc = new Yaml().load(r);
    }
    var secrets = (Map<String, Map<String, Object>>) doc.get("secrets");
    assertThat(secrets).containsKey(secret);
    assertThat(secrets.get(secret)).containsOnlyKeys("environment");
  }

  /**
   * Grafana: a pinned image, its provisioning and dashboard files exist, the dashboard's datasource
   * is the provisioned one.
   */
  @Test
  void prometheusAndGrafanaArePinnedAndGrafanaProvisionsTheDashboard() throws IOException {
    for (String svc : List.of("prometheus", "grafana")) {
      String image = String.valueOf(service(svc).get("image"));
      assertThat(image).as(svc).matches("[\\w./-]+:v?\\d+\\.\\d+\\.\\d+");
    }
    String grafana = String.valueOf(service("grafana").get("image"));
    assertThat(Integer.parseInt(grafana.replaceAll(".*:(\\d+)\\..*", "$1")))
        .as(grafana)
        .isGreaterThanOrEqualTo(12);
    for (String mount : list("grafana", "volumes")) {
      Path host = COMPOSE_DIR.resolve(mount.substring(0, mount.indexOf(':'))).normalize();
      assertThat(host).as(mount).isRegularFile();
    }
    assertThat(env("grafana")).containsKey("GF_SECURITY_ADMIN_PASSWORD");
    String datasource =
        Files.readString(COMPOSE_DIR.resolve("grafana/provisioning/datasources/prometheus.yml"));
    assertThat(datasource).contains("uid: prometheus").contains("url: http://prometheus:9090");
    String dashboard = Files.readString(COMPOSE_DIR.resolve("grafana/tasklane.json"));
    assertThat(dashboard).contains("\"uid\": \"prometheus\"");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> service(String name) throws IOException {
    return (Map<String, Object>) services().get(name);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> build(String name) throws IOException {
    Object build = service(name).get("build");
    assertThat(build).as(name + " build").isInstanceOf(Map.class);
    return (Map<String, Object>) build;
  }

  static List<String> dockerfile(App app) throws IOException {
    return Files.readAllLines(COMPOSE_DIR.resolve("docker").resolve(app.dockerfile())).stream()
        .map(String::strip)
        .toList();
  }

  static String substitute(String text, Map<String, String> args) {
    String out = text;
    for (var e : args.entrySet()) {
      out = out.replace("${" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  static String artifactId(String pom) {
    // The first artifactId after </parent> is the module's own.
    Matcher m = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>").matcher(pom);
    assertThat(m.find()).as("module artifactId").isTrue();
    return m.group(1);
  }

  /** The module's version: its parent's, which every module shares. */
  static String version(String module) throws IOException {
    String pom = Files.readString(HOME.resolve(module).resolve("pom.xml"));
    Matcher m =
        Pattern.compile("<parent>.*?<version>([^<]+)</version>.*?</parent>", Pattern.DOTALL)
            .matcher(pom);
    assertThat(m.find()).as(module + " version").isTrue();
    return m.group(1);
  }

  /** The app's settings under {@code prefix} are keys it knows; {@code kafka.*} passes through. */
  static void assertKnown(Map<String, String> env, String prefix, Set<String> known) {
    env.keySet().stream()
        .filter(k -> k.startsWith(prefix) && !k.startsWith(prefix + "KAFKA_"))
        .map(k -> k.substring(prefix.length()).toLowerCase(Locale.ROOT).replace('_', '-'))
        .forEach(key -> assertThat(known).as("setting " + prefix + key).contains(key));
  }

  static Set<String> keysOf(java.lang.reflect.RecordComponent[] components) {
    return Arrays.stream(components)
        .map(c -> c.getName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT))
        .collect(Collectors.toCollection(HashSet::new));
  }

  /** The broker's address inside compose's network: its advertised listener not on localhost. */
  static String advertisedKafka() throws IOException {
    return advertisedKafka("docker-compose.yml");
  }

  static String advertisedKafka(String file) throws IOException {
    String listeners = ComposeSecurityTest.kafka(file).getProperty("advertised.listeners");
    return Arrays.stream(listeners.split(","))
        .map(l -> l.substring(l.indexOf("//") + 2))
        .filter(l -> !l.startsWith("localhost:"))
        .findFirst()
        .orElseThrow();
  }

  /** A secret's value is {@code ${VAR:?…}}; in a JAAS line, its password is. */
  static void assertRequiredSecret(String what, String value) {
    if (value.contains("LoginModule")) {
      assertThat(value).as(what).matches(".*\\bpassword=\"" + REQUIRED + "\";");
    } else {
      assertThat(value).as(what).matches(REQUIRED);
    }
  }

  static void assertSameDatabase(String jdbcUrl, String user) throws IOException {
    Map<String, String> mysql = env("mysql");
    assertThat(jdbcUrl).endsWith("mysql:3306/" + mysql.get("MYSQL_DATABASE"));
    assertThat(user).isEqualTo(mysql.get("MYSQL_USER"));
  }
}
