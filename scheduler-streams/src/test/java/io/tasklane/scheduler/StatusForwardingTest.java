package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two scheduler instances with different API tokens: a status read of a task the other instance
 * owns is forwarded with the shared inter-instance token, never with the caller's token.
 */
@TasklaneStack
class StatusForwardingTest {
  static final String HANDLER = "api.forward";
  static final String TOKEN_A = Tokens.random();
  static final String TOKEN_B = Tokens.random();

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics, String name, String token) {
    return config(stack, topics, name, token, StackSupport.INTER_INSTANCE);
  }

  private Map<String, Object> config(
      LocalStack stack, Topics topics, String name, String token, String interInstance) {
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, stateDir, name, 4);
    p.put("tasklane.scheduler.api.tokens", "viewer-" + name + ":" + token + ":viewer");
    p.put("tasklane.scheduler.inter-instance-token", interInstance);
    return p; // advertised-host left to its default: this machine's non-loopback address
  }

  /** A read as instance {@code port} would receive it from another instance. */
  private static HttpResponse<String> forwardedRead(int port, String id, String token)
      throws Exception {
    return StackSupport.HTTP.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://localhost:"
                        + port
                        + "/api/tasks/"
                        + id
                        + "?forwarded=true&routingKey="
                        + id))
            .header("Authorization", "Bearer " + token)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aReadOfATaskTheOtherInstanceOwnsIsForwardedWithTheInterInstanceTokenNotTheCallers(
      LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a", TOKEN_A));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b", TOKEN_B));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        TaskEnvelope t = StackSupport.task(HANDLER, System.currentTimeMillis() + 3_600_000);
        StackSupport.send(producer, topics, t);
        ids.add(t.id());
      }
      // Both instances run and each owns some of the tasks (B answers a forwarded read itself).
      List<String> ownedByB = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                ownedByB.clear();
                int ownedByA = 0;
                for (String id : ids) {
                  if (forwardedRead(b.getPort(), id, StackSupport.INTER_INSTANCE).statusCode()
                      == 200) {
                    ownedByB.add(id);
                  } else if (forwardedRead(a.getPort(), id, StackSupport.INTER_INSTANCE)
                          .statusCode()
                      == 200) {
                    ownedByA++;
                  }
                }
                assertThat(ownedByB).isNotEmpty();
                assertThat(ownedByA + ownedByB.size()).isEqualTo(ids.size());
                assertThat(ownedByA).isPositive();
              });

      for (String id : ids) {
        HttpResponse<String> r = StackSupport.get(a.getPort(), "/api/tasks/" + id, TOKEN_A);
        assertThat(r.statusCode()).as(id + " " + r.body()).isEqualTo(200);
        assertThat(r.body()).contains("\"state\":\"PENDING\"");
      }
      String theirs = "/api/tasks/" + ownedByB.get(0);
      // B does not know A's token: had A passed the caller's token on, B would have refused it.
      assertThat(StackSupport.get(b.getPort(), theirs, TOKEN_A).statusCode()).isEqualTo(401);
      // The inter-instance token opens forwarded reads only, and those are never forwarded again.
      assertThat(StackSupport.get(b.getPort(), theirs, StackSupport.INTER_INSTANCE).statusCode())
          .isEqualTo(401);
      assertThat(
              StackSupport.post(b.getPort(), theirs + "/cancel", StackSupport.INTER_INSTANCE)
                  .statusCode())
          .isEqualTo(401);
      HttpResponse<String> noHop =
          forwardedRead(a.getPort(), ownedByB.get(0), StackSupport.INTER_INSTANCE);
      assertThat(noHop.statusCode()).isEqualTo(503);
      assertThat(noHop.body()).contains("ownership moved");
    }
  }

  @Test
  void instancesWithDifferentInterInstanceTokensAnswer502NamingTheKey(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    String otherInter = Tokens.random();
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a", TOKEN_A));
        EmbeddedServer b =
            ApplicationContext.run(
                EmbeddedServer.class, config(stack, topics, "b", TOKEN_B, otherInter));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        TaskEnvelope t = StackSupport.task(HANDLER, System.currentTimeMillis() + 3_600_000);
        StackSupport.send(producer, topics, t);
        ids.add(t.id());
      }
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                String ownedByB = null;
                for (String id : ids) {
                  if (forwardedRead(b.getPort(), id, otherInter).statusCode() == 200) {
                    ownedByB = id;
                  }
                }
                assertThat(ownedByB).isNotNull();
                HttpResponse<String> r =
                    StackSupport.get(a.getPort(), "/api/tasks/" + ownedByB, TOKEN_A);
                assertThat(r.statusCode()).isEqualTo(502);
                assertThat(r.body()).contains("tasklane.scheduler.inter-instance-token");
              });
    }
  }
}
