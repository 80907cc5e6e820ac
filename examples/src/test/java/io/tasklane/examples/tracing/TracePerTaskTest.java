package io.tasklane.examples.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Topics;
import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.examples.orders.OrderRef;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * One trace per task, across processes: relay, scheduler and worker run as separate JVMs with
 * {@code OTEL_TRACES_EXPORTER=logging-otlp} (each writes its spans as OTLP JSON lines to its own
 * file through java.util.logging); this test creates each task's enqueue span with an SDK tracer
 * and enqueues through outbox-lib inside it. Tasks of {@code reminder.send} succeed at once; tasks
 * of {@code partner.notify} fail on attempts 1 and 2 and succeed on attempt 3. Every exported span
 * of a task must carry the enqueue span's trace id; the attempt spans are children of the enqueue
 * span (siblings across retries, numbered 1, 2, 3) and link to a dispatch span of the same attempt.
 */
@TasklaneStack
class TracePerTaskTest {
  private static final String SPAN_LOGGER =
      "io.opentelemetry.exporter.logging.otlp.OtlpJsonLoggingSpanExporter";
  private static final int FIRST_TIME = 3;
  private static final int RETRIED = 2;

  @Test
  void everyHopOfATaskJoinsTheEnqueuingTrace(LocalStack stack) throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    Path home = Path.of("").toAbsolutePath().getParent();
    Path runDir = home.resolve("examples/target/tracing-" + run);
    String url = stack.createDatabase("tasklane_trace_" + run);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    String ns = "tr" + run;
    TasklaneApps apps =
        TasklaneApps.builder().home(home).runDir(runDir).stack(stack, url).namespace(ns).build();
    Map<String, Path> spanFiles = new LinkedHashMap<>();
    List<JavaProcess> started = new ArrayList<>();
    try {
      started.add(traced(apps.relay("relay"), "relay", runDir, spanFiles).start());
      started.add(
          traced(apps.scheduler("scheduler", FreePorts.next()), "scheduler", runDir, spanFiles)
              .start());
      started.add(
          traced(ExampleWorker.recipe(apps, "worker", false), "worker", runDir, spanFiles).start());
      Topics topics = new Topics(ns);
      awaitHandlerTopics(
          stack,
          started,
          topics.handler(ScenarioHandlers.REMINDER),
          topics.handler(ScenarioHandlers.PARTNER));

      Enqueued enqueued = enqueueInsideSpans(url, stack);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .failFast("an app died", () -> assertThat(started).allMatch(JavaProcess::isAlive))
          .until(() -> effects(url, stack).containsAll(enqueued.enqueueSpans.keySet()));

      // Spans are exported in batches every 200 ms: wait until each task's last attempt is there.
      Map<String, List<ExportedSpan>> byTask = new LinkedHashMap<>();
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () -> {
                byTask.clear();
                byTask.putAll(spansByTask(spanFiles.values()));
                for (String id : enqueued.enqueueSpans.keySet()) {
                  int attempts = enqueued.retried.contains(id) ? 3 : 1;
                  assertThat(byTask.getOrDefault(id, List.of()))
                      .as("spans of task %s", id)
                      .filteredOn(s -> s.name().startsWith("process "))
                      .hasSize(attempts);
                }
              });

      for (var e : enqueued.enqueueSpans.entrySet()) {
        assertOneTrace(e.getKey(), e.getValue(), byTask.get(e.getKey()), enqueued.retried);
      }
      String shown = enqueued.retried.iterator().next();
      System.out.println(TraceReport.render(enqueued.enqueueSpans.get(shown), byTask.get(shown)));
    } finally {
      for (JavaProcess p : started) {
        p.close();
      }
    }
  }

  private static void assertOneTrace(
      String id, SpanData enqueue, List<ExportedSpan> spans, Set<String> retried) {
    String trace = enqueue.getTraceId();
    assertThat(spans).as("task %s", id).allMatch(s -> s.traceId().equals(trace));
    assertThat(spans)
        .as("task %s: relay, admission, dispatch", id)
        .anyMatch(s -> s.service().equals("tasklane-relay") && s.name().endsWith(".tasks"))
        .anyMatch(s -> s.service().equals("tasklane-scheduler") && s.name().startsWith("admit "))
        .anyMatch(s -> s.service().equals("tasklane-scheduler") && s.name().startsWith("publish "));
    List<ExportedSpan> dispatches =
        spans.stream()
            .filter(s -> s.service().equals("tasklane-scheduler"))
            .filter(s -> s.name().startsWith("publish "))
            .toList();
    List<ExportedSpan> attempts =
        spans.stream()
            .filter(s -> s.name().startsWith("process "))
            .sorted(Comparator.comparing(s -> Integer.parseInt(s.attribute("tasklane.attempt"))))
            .toList();
    int expected = retried.contains(id) ? 3 : 1;
    assertThat(attempts).extracting(s -> s.attribute("tasklane.attempt")).hasSize(expected);
    for (int i = 0; i < attempts.size(); i++) {
      ExportedSpan attempt = attempts.get(i);
      assertThat(attempt.attribute("tasklane.attempt")).isEqualTo(String.valueOf(i + 1));
      assertThat(attempt.parentSpanId())
          .as("attempt %d of %s: child of the enqueue span", i + 1, id)
          .isEqualTo(enqueue.getSpanId());
      assertThat(attempt.attribute("tasklane.task.id")).isEqualTo(id);
      assertThat(attempt.attribute("messaging.system")).isEqualTo("kafka");
      assertThat(attempt.attribute("messaging.operation.type")).isEqualTo("process");
      if (i + 1 < expected) {
        assertThat(attempt.status())
            .as("failed attempt %d of %s", i + 1, id)
            .isIn("2", "STATUS_CODE_ERROR");
      } else {
        assertThat(attempt.status()).as("last attempt of %s", id).isNotIn("2", "STATUS_CODE_ERROR");
      }
      String attemptNo = attempt.attribute("tasklane.attempt");
      assertThat(attempt.linkedSpanIds())
          .as("attempt %s of %s links to its dispatch span", attemptNo, id)
          .hasSize(1)
          .allMatch(
              link ->
                  dispatches.stream()
                      .anyMatch(
                          d ->
                              d.spanId().equals(link)
                                  && attemptNo.equals(d.attribute("tasklane.attempt"))));
    }
    assertThat(spans)
        .filteredOn(s -> !s.name().startsWith("process "))
        .allMatch(s -> s.parentSpanId().equals(enqueue.getSpanId()));
  }

  private record Enqueued(Map<String, SpanData> enqueueSpans, Set<String> retried) {}

  /** Enqueues each task in its own transaction, inside its own enqueue span of an SDK tracer. */
  private static Enqueued enqueueInsideSpans(String url, LocalStack stack) throws Exception {
    InMemorySpanExporter endedSpans = InMemorySpanExporter.create();
    Map<String, SpanData> byTask = new LinkedHashMap<>();
    Set<String> retried = new HashSet<>();
    try (SdkTracerProvider provider =
            SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(endedSpans))
                .build();
        Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      Tracer tracer = provider.get("tasklane-trace-test");
      c.setAutoCommit(false);
      for (int i = 0; i < FIRST_TIME + RETRIED; i++) {
        boolean retry = i >= FIRST_TIME;
        String handler = retry ? ScenarioHandlers.PARTNER : ScenarioHandlers.REMINDER;
        Span span = tracer.spanBuilder("enqueue " + handler).startSpan();
        String id;
        try (Scope ignored = span.makeCurrent()) {
          TaskRequest request = TaskRequest.to(handler).payload(new OrderRef(7000 + i));
          if (retry) {
            request =
                request
                    .maxAttempts(5)
                    .backoff(RetryPolicy.fixed(Duration.ofMillis(300), Duration.ofMillis(300)));
          }
          id = JdbcTaskOutbox.of(c).enqueue(request);
          c.commit();
        } finally {
          span.end();
        }
        String spanId = span.getSpanContext().getSpanId();
        byTask.put(
            id,
            endedSpans.getFinishedSpanItems().stream()
                .filter(d -> d.getSpanId().equals(spanId))
                .findFirst()
                .orElseThrow());
        if (retry) {
          retried.add(id);
        }
      }
    }
    return new Enqueued(byTask, retried);
  }

  /**
   * The app with tracing on (OTLP JSON lines through java.util.logging, batches every 200 ms) and
   * its span logger writing to {@code spans-<name>.jsonl} of the run.
   */
  private static JavaProcess.Builder traced(
      JavaProcess.Builder app, String name, Path runDir, Map<String, Path> spanFiles)
      throws IOException {
    Path spans = runDir.resolve("spans-" + name + ".jsonl");
    Path julConfig = runDir.resolve("jul-" + name + ".properties");
    Files.createDirectories(runDir);
    Files.writeString(
        julConfig,
        String.join(
            "\n",
            "handlers=java.util.logging.ConsoleHandler",
            ".level=INFO",
            SPAN_LOGGER + ".handlers=java.util.logging.FileHandler",
            SPAN_LOGGER + ".useParentHandlers=false",
            "java.util.logging.FileHandler.pattern=" + spans,
            "java.util.logging.FileHandler.limit=0",
            "java.util.logging.FileHandler.append=true",
            "java.util.logging.FileHandler.encoding=UTF-8",
            "java.util.logging.FileHandler.formatter=java.util.logging.SimpleFormatter",
            "java.util.logging.SimpleFormatter.format=%5$s%n",
            ""));
    spanFiles.put(name, spans);
    return app.env("OTEL_TRACES_EXPORTER", "logging-otlp")
        .env("OTEL_BSP_SCHEDULE_DELAY", "200")
        .sysProp("java.util.logging.config.file", julConfig.toString());
  }

  private static Map<String, List<ExportedSpan>> spansByTask(Collection<Path> files) {
    return files.stream()
        .flatMap(f -> ExportedSpan.read(f).stream())
        .filter(s -> s.attribute("tasklane.task.id") != null)
        .collect(
            Collectors.groupingBy(
                s -> s.attribute("tasklane.task.id"), LinkedHashMap::new, Collectors.toList()));
  }

  private static Set<String> effects(String url, LocalStack stack) throws Exception {
    Set<String> ids = new HashSet<>();
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT task_id FROM demo_effects")) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    return ids;
  }

  /** The worker creates its handler topics at start; dispatches before that would wait. */
  private static void awaitHandlerTopics(
      LocalStack stack, List<JavaProcess> apps, String... handlerTopics) {
    try (Admin admin = Admin.create(stack.kafkaAdminProperties())) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .failFast("an app died", () -> assertThat(apps).allMatch(JavaProcess::isAlive))
          .until(() -> admin.listTopics().names().get().containsAll(List.of(handlerTopics)));
    }
  }
}
