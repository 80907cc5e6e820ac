package io.tasklane.adoption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskKey;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/**
 * docs/getting-started.md followed from the outside: the sample service {@code
 * samples/invoice-service} is copied out of the checkout and built by its own Maven run against the
 * installed Tasklane artifacts; the relay and the scheduler run from their distributions unpacked
 * outside the checkout, configured with the sample's files; then the service's tasks run, its
 * cancel works and every status is read through the scheduler's API.
 */
@TasklaneStack
class AdoptionTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();
  private static final String VERSION = System.getProperty("tasklane.version", "0.1.0");
  private static final String KAFKA = System.getProperty("tasklane.kafka.version", "4.1.2");
  private static final Path SAMPLE = HOME.resolve("samples/invoice-service");
  private static final String SERVICE_JAR = "target/invoice-service-1.0.0-SNAPSHOT.jar";
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  private final LocalStack stack;
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<ExternalProcess> started = new ArrayList<>();

  AdoptionTest(LocalStack stack) {
    this.stack = stack;
  }

  @Test
  void aServiceBuiltFromTheGuideRunsItsTasksCancelsAReminderAndShowsStatusThroughTheApi()
      throws Exception {
    String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    Path work = Files.createTempDirectory("tasklane-adoption-");
    Path logs = work.resolve("logs");
    boolean passed = false;
    try {
      // 1. The table (and the service's own), as the guide says: schema.sql.
      String jdbcUrl = stack.createDatabase("invoices_" + suffix);
      applySchema(jdbcUrl, SAMPLE.resolve("schema.sql"));
      String namespace = "adopt" + suffix;

      // 2. The relay and the scheduler from their distributions, outside the checkout.
      Path relayDist =
          unzip(HOME.resolve("cdc-relay/target/tasklane-cdc-relay-" + VERSION + "-dist.zip"), work);
      Path schedulerDist =
          unzip(
              HOME.resolve(
                  "scheduler-streams/target/tasklane-scheduler-streams-" + VERSION + "-dist.zip"),
              work);
      Files.copy(SAMPLE.resolve("tasklane/relay.properties"), work.resolve("relay.properties"));
      Files.copy(
          SAMPLE.resolve("tasklane/scheduler.properties"), work.resolve("scheduler.properties"));

      Path relayPortFile = work.resolve("relay.port");
      Map<String, String> relayEnv = new HashMap<>();
      relayEnv.put("TASKLANE_RELAY_JDBC_URL", jdbcUrl);
      relayEnv.put("TASKLANE_RELAY_USERNAME", stack.username());
      relayEnv.put("TASKLANE_RELAY_PASSWORD", stack.password());
      relayEnv.put("TASKLANE_RELAY_BOOTSTRAP_SERVERS", stack.bootstrapServers());
      relayEnv.put("TASKLANE_RELAY_NAMESPACE", namespace);
      relayEnv.put("TASKLANE_RELAY_HTTP_PORT", "0");
      relayEnv.put("TASKLANE_RELAY_HTTP_PORT_FILE", relayPortFile.toString());
      start(
          "relay",
          List.of(
              ExternalProcess.java(),
              "-Xmx384m",
              "-jar",
              relayDist.resolve("tasklane-cdc-relay-" + VERSION + ".jar").toString(),
              "--config",
              "relay.properties"),
          relayEnv,
          work,
          logs);

      String token = randomToken();
      int apiPort = freePort();
      Map<String, String> schedulerEnv = new HashMap<>();
      schedulerEnv.put("TASKLANE_SCHEDULER_BOOTSTRAP_SERVERS", stack.bootstrapServers());
      schedulerEnv.put("TASKLANE_SCHEDULER_NAMESPACE", namespace);
      schedulerEnv.put("TASKLANE_SCHEDULER_API_TOKENS", "ops:" + token + ":operator");
      schedulerEnv.put("MICRONAUT_SERVER_PORT", String.valueOf(apiPort));
      start(
          "scheduler",
          List.of(
              ExternalProcess.java(),
              "-Xmx384m",
              "-Dmicronaut.config.files=scheduler.properties",
              "-jar",
              schedulerDist.resolve("tasklane-scheduler-streams-" + VERSION + ".jar").toString()),
          schedulerEnv,
          work,
          logs);

      // 3. The service: its own Maven build, against the installed artifacts.
      Path project = work.resolve("invoice-service");
      copyTree(SAMPLE, project);
      build(project, logs);
      assertThat(project.resolve(SERVICE_JAR)).exists();
      try (Stream<Path> lib = Files.list(project.resolve("target/lib"))) {
        List<String> kafkaClients =
            lib.map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("kafka-clients-"))
                .toList();
        assertThat(kafkaClients)
            .as("the BOM's Kafka clients, not Micronaut's 3.9")
            .containsExactly("kafka-clients-" + KAFKA + ".jar");
      }

      awaitRelayStreaming(relayPortFile);
      await("scheduler /health")
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(() -> get(apiPort, "/health", null).statusCode() == 200);

      // 4. Start the service's worker, then issue two invoices and pay one.
      Map<String, String> appEnv = new HashMap<>();
      appEnv.put("DATASOURCES_DEFAULT_URL", jdbcUrl);
      appEnv.put("DATASOURCES_DEFAULT_USERNAME", stack.username());
      appEnv.put("DATASOURCES_DEFAULT_PASSWORD", stack.password());
      appEnv.put("TASKLANE_WORKER_BOOTSTRAP_SERVERS", stack.bootstrapServers());
      appEnv.put("TASKLANE_WORKER_NAMESPACE", namespace);
      start("invoice-service", serviceCommand(project), appEnv, project, logs);

      long paid = issue(project, appEnv, "PT10M", logs, "issue-paid");
      long unpaid = issue(project, appEnv, "PT2S", logs, "issue-unpaid");
      ExternalProcess pay = command(project, appEnv, logs, "pay-" + paid, "pay", "" + paid);
      assertThat(pay.waitFor(PATIENCE)).as(pay.tail(40)).isZero();
      assertThat(pay.output()).contains("invoice " + paid + " paid");

      // 5. Every task's status through the scheduler API; the effects in the database.
      awaitState(apiPort, token, TaskKey.of("invoice.send", "send-" + paid), "SUCCEEDED");
      awaitState(apiPort, token, TaskKey.of("invoice.send", "send-" + unpaid), "SUCCEEDED");
      awaitState(apiPort, token, TaskKey.of("invoice.remind", "remind-" + unpaid), "SUCCEEDED");
      awaitState(apiPort, token, TaskKey.of("invoice.remind", "remind-" + paid), "CANCELLED");
      assertThat(get(apiPort, "/api/tasks/" + UUID.randomUUID(), null).statusCode())
          .as("the API needs the token")
          .isEqualTo(401);
      assertThat(invoice(jdbcUrl, paid)).isEqualTo("PAID sent reminders=0");
      assertThat(invoice(jdbcUrl, unpaid)).isEqualTo("ISSUED sent reminders=1");
      passed = true;
    } finally {
      for (int i = started.size() - 1; i >= 0; i--) {
        started.get(i).close();
      }
      if (!passed) {
        started.forEach(p -> System.out.println(p.tail(60)));
        System.out.println("kept for inspection: " + work);
      } else {
        deleteTree(work);
      }
    }
  }

  private ExternalProcess start(
      String name, List<String> cmd, Map<String, String> env, Path dir, Path logs) {
    ExternalProcess p = ExternalProcess.start(name, cmd, env, dir, logs);
    started.add(p);
    return p;
  }

  private static List<String> serviceCommand(Path project, String... args) {
    List<String> cmd = new ArrayList<>(List.of(ExternalProcess.java(), "-Xmx256m", "-jar"));
    cmd.add(project.resolve(SERVICE_JAR).toString());
    cmd.addAll(List.of(args));
    return cmd;
  }

  private ExternalProcess command(
      Path project, Map<String, String> env, Path logs, String name, String... args) {
    return start(name, serviceCommand(project, args), env, project, logs);
  }

  private long issue(
      Path project, Map<String, String> appEnv, String reminderDelay, Path logs, String name)
      throws InterruptedException {
    Map<String, String> env = new HashMap<>(appEnv);
    env.put("INVOICE_REMINDER_DELAY", reminderDelay);
    ExternalProcess p = command(project, env, logs, name, "issue", "acme", "12000");
    assertThat(p.waitFor(PATIENCE)).as(p.tail(40)).isZero();
    Matcher m = Pattern.compile("invoice (\\d+) issued").matcher(p.output());
    assertThat(m.find()).as(p.tail(40)).isTrue();
    return Long.parseLong(m.group(1));
  }

  /** {@code mvnw -B -q -o package -f pom.xml}, offline first, online if that cannot resolve. */
  private void build(Path project, Path logs) throws InterruptedException {
    String mvnw = HOME.resolve("mvnw").toString();
    String pom = project.resolve("pom.xml").toString();
    ExternalProcess offline =
        start(
            "build-offline",
            List.of(mvnw, "-B", "-q", "-o", "package", "-f", pom),
            Map.of(),
            project,
            logs);
    if (offline.waitFor(Duration.ofMinutes(5)) == 0) {
      return;
    }
    ExternalProcess online =
        start(
            "build-online",
            List.of(mvnw, "-B", "-q", "package", "-f", pom),
            Map.of(),
            project,
            logs);
    assertThat(online.waitFor(Duration.ofMinutes(10)))
        .as("the sample builds against the installed artifacts\n" + online.tail(60))
        .isZero();
  }

  private void awaitRelayStreaming(Path portFile) {
    await("relay /health says streaming")
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(
            () -> {
              int port = Integer.parseInt(Files.readString(portFile).trim());
              return get(port, "/health", null).body().contains("\"streaming\"");
            });
  }

  private void awaitState(int port, String token, TaskKey task, String state) {
    String path = "/api/tasks/" + task.taskId();
    await(task + " " + state)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              HttpResponse<String> r = get(port, path, token);
              assertThat(r.body()).contains("\"state\":\"" + state + "\"");
            });
  }

  private HttpResponse<String> get(int port, String path, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private void applySchema(String jdbcUrl, Path schema) throws Exception {
    String sql =
        Files.readString(schema)
            .lines()
            .filter(l -> !l.trim().startsWith("--"))
            .reduce("", (a, b) -> a + "\n" + b);
    try (Connection c = DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
        Statement s = c.createStatement()) {
      for (String statement : sql.split(";")) {
        if (!statement.isBlank()) {
          s.execute(statement);
        }
      }
    }
  }

  private String invoice(String jdbcUrl, long id) throws Exception {
    try (Connection c = DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT state, sent_at, reminders FROM invoices WHERE id = " + id)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1)
          + (rs.getObject(2) == null ? " unsent" : " sent")
          + " reminders="
          + rs.getInt(3);
    }
  }

  /** Unpacks a distribution zip into {@code dir}; returns its top directory. */
  static Path unzip(Path zip, Path dir) throws IOException {
    assertThat(zip).as("the distribution (built by the module's package phase)").exists();
    Path top = null;
    try (InputStream in = Files.newInputStream(zip);
        ZipInputStream z = new ZipInputStream(in)) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        Path target = dir.resolve(e.getName()).normalize();
        assertThat(target.startsWith(dir)).as("entry %s stays inside", e.getName()).isTrue();
        if (top == null) {
          top = dir.resolve(Path.of(e.getName()).getName(0));
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(z, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return top;
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.filter(p -> !from.relativize(p).startsWith("target")).toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static String randomToken() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
