package io.tasklane.adoption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskKey;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * docs/getting-started-spring.md followed from the outside: {@code samples/spring-order-service} (a
 * Spring Boot app on spring-boot-starter-parent with tasklane-spring-boot-starter, no Tasklane
 * wiring code) is copied out of the checkout and built by its own Maven run against the installed
 * artifacts, tests included (its dependency-version test); its Boot jar runs once, against the
 * relay and the scheduler started from their distributions. Its Flyway migration creates the
 * tables, an order placed over HTTP runs its confirmation to SUCCEEDED exactly once, paying an
 * order cancels its delayed task in the same transaction, and its {@code @Recurring} schedule is
 * published.
 */
@TasklaneStack
class SpringAdoptionTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();
  private static final String VERSION = System.getProperty("tasklane.version", "0.1.0");
  private static final String KAFKA = System.getProperty("tasklane.kafka.version", "4.1.2");
  private static final String JACKSON = System.getProperty("tasklane.jackson.version", "2.21.8");
  private static final String HIBERNATE =
      System.getProperty("tasklane.hibernate.version", "6.6.32.Final");
  private static final Path SAMPLE = HOME.resolve("samples/spring-order-service");
  private static final String SERVICE_JAR = "target/order-service-1.0.0-SNAPSHOT.jar";
  private static final String SCHEDULE = "orders.unpaid-report";
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  private final LocalStack stack;
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<ExternalProcess> started = new ArrayList<>();

  SpringAdoptionTest(LocalStack stack) {
    this.stack = stack;
  }

  @Test
  void aBootAppBuiltFromTheGuideRunsItsTaskCancelsTheDelayedOneAndPublishesItsSchedule()
      throws Exception {
    String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    Path work = Files.createTempDirectory("tasklane-spring-adoption-");
    Path logs = work.resolve("logs");
    boolean passed = false;
    try {
      // 1. An empty database: the service's Flyway migration creates every table.
      String jdbcUrl = stack.createDatabase("orders_" + suffix);
      String namespace = "spring" + suffix;

      // 2. The relay and the scheduler from their distributions, outside the checkout (the relay
      // waits for the outbox table; either one creates the topics the worker needs).
      Path relayDist =
          AdoptionTest.unzip(
              HOME.resolve("cdc-relay/target/tasklane-cdc-relay-" + VERSION + "-dist.zip"), work);
      Path schedulerDist =
          AdoptionTest.unzip(
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

      String token = AdoptionTest.randomToken();
      int apiPort = AdoptionTest.freePort();
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

      // 3. The service: its own Maven build (its tests included), against the installed artifacts.
      Path project = work.resolve("spring-order-service");
      AdoptionTest.copyTree(SAMPLE, project);
      build(project, logs);
      assertThat(project.resolve("target/surefire-reports"))
          .as("the sample's own test of its dependency versions ran")
          .isDirectoryContaining("glob:**/TEST-com.example.orders.DependencyVersionsTest.xml");
      assertThat(libraries(project.resolve(SERVICE_JAR)))
          .as("the Boot jar carries the versions Tasklane is built and tested with")
          .contains(
              "kafka-clients-" + KAFKA + ".jar",
              "jackson-databind-" + JACKSON + ".jar",
              "hibernate-core-" + HIBERNATE + ".jar",
              "tasklane-spring-boot-starter-" + VERSION + ".jar")
          .noneMatch(n -> n.startsWith("kafka-clients-") && !n.contains(KAFKA))
          .noneMatch(n -> n.startsWith("jackson-databind-") && !n.contains(JACKSON))
          .noneMatch(n -> n.startsWith("hibernate-core-") && !n.contains(HIBERNATE));

      awaitRelayStreaming(relayPortFile);
      await("scheduler /health")
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(() -> get(apiPort, "/health", null).statusCode() == 200);

      // 4. One start of the service (migration, worker, schedule), then two orders; pay one.
      int appPort = AdoptionTest.freePort();
      Map<String, String> appEnv = new HashMap<>();
      appEnv.put("SPRING_DATASOURCE_URL", jdbcUrl);
      appEnv.put("SPRING_DATASOURCE_USERNAME", stack.username());
      appEnv.put("SPRING_DATASOURCE_PASSWORD", stack.password());
      appEnv.put("TASKLANE_WORKER_BOOTSTRAP_SERVERS", stack.bootstrapServers());
      appEnv.put("TASKLANE_WORKER_NAMESPACE", namespace);
      appEnv.put("SERVER_PORT", String.valueOf(appPort));
      ExternalProcess app =
          start(
              "order-service",
              List.of(ExternalProcess.java(), "-Xmx256m", "-jar", SERVICE_JAR),
              appEnv,
              project,
              logs);
      await("the service answers")
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(
              () -> {
                assertThat(app.isAlive()).as(app.tail(60)).isTrue();
                return post(appPort, "/orders/0/pay").statusCode() == 409;
              });

      long paid = place(appPort, "acme", 12000);
      long unpaid = place(appPort, "globex", 4500);
      HttpResponse<String> pay = post(appPort, "/orders/" + paid + "/pay");
      assertThat(pay.statusCode()).as(pay.body()).isEqualTo(200);
      assertThat(pay.body()).contains("order " + paid + " paid");

      // 5. The tasks' states through the scheduler API; the effects in the database.
      TaskKey confirmPaid = TaskKey.of("order.confirm", "confirm-" + paid);
      TaskKey confirmUnpaid = TaskKey.of("order.confirm", "confirm-" + unpaid);
      awaitState(apiPort, token, confirmPaid, "SUCCEEDED");
      awaitState(apiPort, token, confirmUnpaid, "SUCCEEDED");
      awaitState(apiPort, token, TaskKey.of("order.cancel-unpaid", "cancel-" + paid), "CANCELLED");
      awaitState(apiPort, token, TaskKey.of("order.cancel-unpaid", "cancel-" + unpaid), "PENDING");
      await("schedule " + SCHEDULE + " published by the service")
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () -> {
                HttpResponse<String> r = get(apiPort, "/api/schedules/" + SCHEDULE, token);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(r.body())
                    .contains("\"handler\":\"" + SCHEDULE + "\"", "\"cron\":\"0 * * * *\"");
              });

      assertThat(order(jdbcUrl, paid)).isEqualTo("PAID confirmations=1");
      assertThat(order(jdbcUrl, unpaid)).isEqualTo("CREATED confirmations=1");
      assertThat(processed(jdbcUrl))
          .as("the idempotency marks, committed with the handler's effect")
          .containsExactlyInAnyOrder(confirmPaid.taskId(), confirmUnpaid.taskId());
      assertThat(app.isAlive()).isTrue();
      passed = true;
    } finally {
      for (int i = started.size() - 1; i >= 0; i--) {
        started.get(i).close();
      }
      if (!passed) {
        started.forEach(p -> System.out.println(p.tail(60)));
        System.out.println("kept for inspection: " + work);
      } else {
        AdoptionTest.deleteTree(work);
      }
    }
  }

  private ExternalProcess start(
      String name, List<String> cmd, Map<String, String> env, Path dir, Path logs) {
    ExternalProcess p = ExternalProcess.start(name, cmd, env, dir, logs);
    started.add(p);
    return p;
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

  /** The names of the jars in the Boot jar's {@code BOOT-INF/lib}. */
  private static List<String> libraries(Path bootJar) throws Exception {
    try (ZipFile jar = new ZipFile(bootJar.toFile())) {
      return jar.stream()
          .map(e -> e.getName())
          .filter(n -> n.startsWith("BOOT-INF/lib/") && n.endsWith(".jar"))
          .map(n -> n.substring("BOOT-INF/lib/".length()))
          .toList();
    }
  }

  private long place(int port, String customer, long cents) throws Exception {
    HttpResponse<String> r = post(port, "/orders?customer=" + customer + "&amountCents=" + cents);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    Matcher m = Pattern.compile("\"id\":(\\d+)").matcher(r.body());
    assertThat(m.find()).as(r.body()).isTrue();
    long id = Long.parseLong(m.group(1));
    assertThat(r.body())
        .as("the answer names the task ids, as TaskKey computes them")
        .contains(TaskKey.of("order.confirm", "confirm-" + id).taskId())
        .contains(TaskKey.of("order.cancel-unpaid", "cancel-" + id).taskId());
    return id;
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

  /** Waits until the task's status says {@code "state":"<state>"}. */
  private void awaitState(int port, String token, TaskKey task, String state) {
    String expected = "\"state\":\"" + state + "\"";
    await(task + " " + state)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              HttpResponse<String> r = get(port, "/api/tasks/" + task.taskId(), token);
              assertThat(r.body()).contains(expected);
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

  private HttpResponse<String> post(int port, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private String order(String jdbcUrl, long id) throws Exception {
    try (Connection c = DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT state, confirmations_sent FROM orders WHERE id = " + id)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1) + " confirmations=" + rs.getInt(2);
    }
  }

  private List<String> processed(String jdbcUrl) throws Exception {
    List<String> ids = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT task_id FROM tasklane_processed")) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    return ids;
  }
}
