package io.tasklane.examples.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tasklane.core.Topics;
import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.examples.orders.OrderRef;
import io.tasklane.examples.orders.OrderService;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The compose stack's Prometheus alert rules ({@code compose/prometheus/alerts.yml}) and Grafana
 * dashboard ({@code compose/grafana/tasklane.json}) name only metrics the apps really export:
 * relay, scheduler and example worker run as separate JVMs on the shared stack, one task goes DEAD,
 * one SUCCEEDED and one undecodable record reaches the scheduler, then {@code /metrics} (relay) and
 * {@code /prometheus} (scheduler, worker) are scraped and every metric (and every label value
 * matched with {@code =}) of every expression must appear there. The worker's {@code /health} shows
 * its Kafka, idempotency-store and handler indicators UP.
 */
@TasklaneStack
class MonitoringConfigTest {
  private static final Path HOME = Path.of("").toAbsolutePath().getParent();
  private static final Path COMPOSE = HOME.resolve("compose");
  private static final Pattern SELECTOR =
      Pattern.compile("\\b([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
  private static final Pattern EQUALS = Pattern.compile("([a-zA-Z_]\\w*)\\s*=\\s*\"([^\"]*)\"");
  private static final Pattern TASKLANE_METRIC = Pattern.compile("\\btasklane_[a-z0-9_]+\\b");
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /**
   * Metrics only a PostgreSQL relay exports (its replication slot). This run's relay reads MariaDB,
   * so they are left out here; cdc-relay's PostgresRelayTest checks every such name of the alert
   * rules against a PostgreSQL relay's real {@code /metrics}.
   */
  static final String POSTGRES_ONLY_PREFIX = "tasklane_relay_slot_";

  @Test
  void everyMetricOfTheAlertRulesAndTheDashboardIsExportedByTheRunningApps(LocalStack stack)
      throws Exception {
    List<String> expressions = new ArrayList<>(alertExpressions());
    int rules = expressions.size();
    expressions.addAll(dashboardExpressions());
    assertThat(rules).as("alert rules").isGreaterThanOrEqualTo(5);
    assertThat(expressions.size() - rules).as("dashboard queries").isGreaterThanOrEqualTo(8);

    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String ns = "mon" + run;
    String url = stack.createDatabase("tasklane_mon_" + run);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    Path runDir = HOME.resolve("examples/target/monitoring-" + run);
    var apps =
        TasklaneApps.builder().home(HOME).runDir(runDir).stack(stack, url).namespace(ns).build();
    int relayPort = FreePorts.next();
    int schedulerPort = FreePorts.next();
    int workerPort = FreePorts.next();
    List<JavaProcess> processes = new ArrayList<>();
    try {
      processes.add(
          apps.relay("relay").sysProp("tasklane.relay.http-port", "" + relayPort).start());
      processes.add(apps.scheduler("scheduler", schedulerPort).start());
      processes.add(ExampleWorker.recipe(apps, "worker", false, workerPort).start());
      awaitUp(processes, schedulerPort, "/health");
      // UP only when the worker's indicators (Kafka, idempotency store, handlers) all are; their
      // details are for authenticated callers only (WorkerHealthTest reads them)
      JsonNode workerHealth = awaitUp(processes, workerPort, "/health");
      assertThat(workerHealth.has("details")).as(workerHealth.toString()).isFalse();
      awaitUp(processes, workerPort, "/health/readiness");
      awaitUp(processes, workerPort, "/health/liveness");

      try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
        c.setAutoCommit(false);
        JdbcTaskOutbox.of(c).enqueue(TaskRequest.to(OrderService.EMAIL).payload(new OrderRef(1)));
        JdbcTaskOutbox.of(c)
            .enqueue(
                TaskRequest.to(ScenarioHandlers.BROKEN).payload(new OrderRef(2)).maxAttempts(1));
        c.commit();
      }
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()),
              new StringSerializer(),
              new StringSerializer())) {
        producer
            .send(new ProducerRecord<>(new Topics(ns).tasks(), "garbage", "not a task"))
            .get(30, TimeUnit.SECONDS);
      }

      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofSeconds(1))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(
              () -> {
                String scraped =
                    scrape(relayPort, "/metrics", null)
                        + scrape(schedulerPort, "/prometheus", TasklaneApps.TOKEN)
                        + scrape(workerPort, "/prometheus", null);
                assertThat(scraped)
                    .doesNotContain(POSTGRES_ONLY_PREFIX)
                    .contains("tasklane_worker_tasks_finished_total{")
                    .contains("tasklane_worker_consumer_lag{");
                assertThat(unexported(expressions, scraped))
                    .as("metrics (and label values) the rules and the dashboard use, not exported")
                    .isEmpty();
              });
    } finally {
      for (int i = processes.size() - 1; i >= 0; i--) {
        processes.get(i).close();
      }
      deleteTree(runDir.resolve("state-scheduler"));
    }
  }

  /** Each metric, or {@code metric{label="value"}}, of {@code expressions} that is not exported. */
  static Set<String> unexported(List<String> expressions, String scraped) {
    Map<String, List<String>> series = series(scraped);
    Set<String> jobs = scrapeJobs();
    Set<String> missing = new TreeSet<>();
    for (String expr : expressions) {
      Matcher names = TASKLANE_METRIC.matcher(expr);
      while (names.find()) {
        if (names.group().startsWith(POSTGRES_ONLY_PREFIX)) {
          continue;
        }
        if (!series.containsKey(names.group())) {
          missing.add(names.group());
        }
      }
      Matcher selector = SELECTOR.matcher(expr);
      while (selector.find()) {
        String name = selector.group(1);
        if (name.startsWith(POSTGRES_ONLY_PREFIX)) {
          continue;
        }
        Matcher eq = EQUALS.matcher(selector.group(2));
        if (name.equals("up")) {
          // Prometheus' own series per target: its job must be one prometheus.yml scrapes.
          while (eq.find()) {
            if (eq.group(1).equals("job") && !jobs.contains(eq.group(2))) {
              missing.add("up{job=\"" + eq.group(2) + "\"} (no such scrape job)");
            }
          }
          continue;
        }
        if (!name.startsWith("tasklane_")) {
          missing.add(name + " (not a Tasklane metric)");
          continue;
        }
        while (eq.find()) {
          String matcher = eq.group(1) + "=\"" + eq.group(2) + "\"";
          if (series.getOrDefault(name, List.of()).stream().noneMatch(l -> l.contains(matcher))) {
            missing.add(name + "{" + matcher + "}");
          }
        }
      }
    }
    return missing;
  }

  /** Series name → the label sets it was exported with. */
  private static Map<String, List<String>> series(String scraped) {
    Map<String, List<String>> out = new java.util.HashMap<>();
    for (String line : scraped.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      int end = brace >= 0 && brace < space ? brace : space;
      String name = line.substring(0, end);
      String labels =
          brace >= 0 && brace < space ? line.substring(brace, line.indexOf('}') + 1) : "";
      out.computeIfAbsent(name, n -> new ArrayList<>()).add(labels);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<String> alertExpressions() throws Exception {
    try (Reader r = Files.newBufferedReader(COMPOSE.resolve("prometheus/alerts.yml"))) {
      Map<String, Object> doc = new Yaml().load(r);
      List<String> out = new ArrayList<>();
      for (Map<String, Object> group : (List<Map<String, Object>>) doc.get("groups")) {
        for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
          out.add(String.valueOf(rule.get("expr")));
        }
      }
      return out;
    }
  }

  private static List<String> dashboardExpressions() throws Exception {
    JsonNode dashboard =
        new ObjectMapper().readTree(COMPOSE.resolve("grafana/tasklane.json").toFile());
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.add(target.path("expr").asText());
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Set<String> scrapeJobs() {
    try (Reader r = Files.newBufferedReader(COMPOSE.resolve("prometheus/prometheus.yml"))) {
      Map<String, Object> doc = new Yaml().load(r);
      Set<String> jobs = new TreeSet<>();
      for (Map<String, Object> c : (List<Map<String, Object>>) doc.get("scrape_configs")) {
        jobs.add(String.valueOf(c.get("job_name")));
      }
      return jobs;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JsonNode awaitUp(List<JavaProcess> processes, int port, String path) {
    return await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(500))
        .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
        .ignoreExceptions()
        .until(
            () -> {
              HttpResponse<String> r = get(port, path);
              JsonNode body = new ObjectMapper().readTree(r.body());
              return r.statusCode() == 200 && "UP".equals(body.path("status").asText())
                  ? body
                  : null;
            },
            body -> body != null);
  }

  /** The scrape; {@code token}: the scheduler's API token, as Prometheus sends it. */
  private static String scrape(int port, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(r.statusCode()).as("GET :" + port + path).isEqualTo(200);
    return r.body() + "\n";
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static void deleteTree(Path dir) throws Exception {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
