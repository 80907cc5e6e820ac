package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The status API against the real stack: a routing key that does not own the task answers 404 and
 * sends nothing; commands carry and audit-log their actor (the token's name).
 */
@TasklaneStack
class StatusApiRoutingTest {
  static final String HANDLER = "api.routing";

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 4);
    p.put("tasklane.scheduler.state-dir", stateDir.toString());
    p.put("tasklane.scheduler.topic-refresh-interval", "500ms");
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:" + VIEWER + ":viewer,ops-alice:" + OPERATOR + ":operator");
    return p;
  }

  private static List<CancelCommand> cancels(LocalStack stack, Topics topics, int min) {
    return StackSupport.readAll(stack.bootstrapServers(), topics.control(), min).stream()
        .map(r -> (ControlRecord) WireCodec.decodeControl(r.value()))
        .filter(CancelCommand.class::isInstance)
        .map(CancelCommand.class::cast)
        .toList();
  }

  @Test
  void aStatusReadOrCommandUnderARoutingKeyThatDoesNotOwnTheTaskAnswers404AndSendsNothing(
      LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    Logger audit = (Logger) LoggerFactory.getLogger("io.tasklane.scheduler.audit");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    audit.addAppender(lines);
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      int port = server.getPort();
      // Due in an hour: PENDING, so a cancel that reached it would show.
      TaskEnvelope task =
          StackSupport.task(HANDLER, System.currentTimeMillis() + 3_600_000, "order-42");
      StackSupport.send(producer, topics, task);
      String path = "/api/tasks/" + task.id();
      String right = path + "?routingKey=order-42";
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> assertThat(StackSupport.get(port, right, VIEWER).statusCode()).isEqualTo(200));

      for (String wrong : List.of(path, path + "?routingKey=order-43")) {
        HttpResponse<String> read = StackSupport.get(port, wrong, VIEWER);
        assertThat(read.statusCode()).as(wrong).isEqualTo(404);
        assertThat(read.body()).contains("no task " + task.id());
      }
      String wrongCancel = path + "/cancel?routingKey=order-43";
      HttpResponse<String> refused = StackSupport.post(port, wrongCancel, OPERATOR);
      assertThat(refused.statusCode()).isEqualTo(404);
      assertThat(refused.body()).contains("under routingKey 'order-43'");
      assertThat(StackSupport.post(port, path + "/trigger", OPERATOR).statusCode()).isEqualTo(404);
      assertThat(StackSupport.get(port, right, VIEWER).body()).contains("\"state\":\"PENDING\"");

      HttpResponse<String> ok =
          StackSupport.post(port, path + "/cancel?routingKey=order-42&reason=paid", OPERATOR);
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      assertThat(ok.body()).contains("\"outcome\":\"applied\"").contains("\"state\":\"CANCELLED\"");
      assertThat(StackSupport.get(port, right, VIEWER).body()).contains("\"state\":\"CANCELLED\"");
      // Only the accepted cancel reached the control topic, keyed by the routing key, with its
      // actor.
      List<CancelCommand> sent = cancels(stack, topics, 1);
      assertThat(sent)
          .singleElement()
          .satisfies(
              c -> {
                assertThat(c.id()).isEqualTo(task.id());
                assertThat(c.actor()).isEqualTo("ops-alice");
                assertThat(c.reason()).isEqualTo("paid");
              });
      assertThat(lines.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .anySatisfy(
              l ->
                  assertThat(l)
                      .startsWith(
                          "actor=ops-alice action=cancel target=task/"
                              + task.id()
                              + " refused (routingKey=order-43, 404 "))
          .anySatisfy(
              l ->
                  assertThat(l)
                      .isEqualTo(
                          "actor=ops-alice action=cancel target=task/"
                              + task.id()
                              + " accepted (routingKey=order-42)"));
      assertThat(lines.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .noneSatisfy(l -> assertThat(l).contains(OPERATOR));
    } finally {
      audit.detachAppender(lines);
    }
  }
}
