package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.testkit.TestCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API over TLS: two instances serve HTTPS with a certificate from a throw-away CA, and a status
 * read of a task the other instance owns is forwarded over HTTPS, trusting the CA through {@code
 * inter-instance-trust-store}. The inter-instance token opens only the reads instances forward.
 */
@TasklaneStack
class ApiTlsTest {
  static final String HANDLER = "api.tls";
  static final String TOKEN = Tokens.random();

  @TempDir Path dir;

  private Map<String, Object> config(
      LocalStack stack, Topics topics, String name, TestCertificates certs) {
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, dir, name, 4);
    p.put("tasklane.scheduler.api.tokens", "viewer-" + name + ":" + TOKEN + ":viewer");
    p.put("tasklane.scheduler.advertised-host", "127.0.0.1"); // the certificate's address
    p.put("micronaut.server.ssl.enabled", true);
    p.put("micronaut.server.ssl.port", -1);
    p.put("micronaut.server.ssl.key-store.path", "file:" + certs.keystore());
    p.put("micronaut.server.ssl.key-store.password", certs.keystorePassword());
    p.put("micronaut.server.ssl.key-store.type", "PKCS12");
    p.put("tasklane.scheduler.inter-instance-trust-store", certs.truststore().toString());
    p.put("tasklane.scheduler.inter-instance-trust-store-password", certs.truststorePassword());
    return p;
  }

  @Test
  void statusReadsAreServedAndForwardedOverHttps(LocalStack stack) throws Exception {
    TestCertificates certs = TestCertificates.generate(dir.resolve("tls"));
    HttpClient https = HttpClient.newBuilder().sslContext(trusting(certs)).build();
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a", certs));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b", certs));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      assertThat(a.getScheme()).isEqualTo("https");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        TaskEnvelope t = StackSupport.task(HANDLER, System.currentTimeMillis() + 3_600_000);
        StackSupport.send(producer, topics, t);
        ids.add(t.id());
      }
      // every task answers through A, half of them forwarded to B over HTTPS
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                int ownedByB = 0;
                for (String id : ids) {
                  HttpResponse<String> r = get(https, a.getPort(), "/api/tasks/" + id, TOKEN);
                  assertThat(r.statusCode()).as(id + " " + r.body()).isEqualTo(200);
                  if (get(https, b.getPort(), forwarded(id), StackSupport.INTER_INSTANCE)
                          .statusCode()
                      == 200) {
                    ownedByB++;
                  }
                }
                assertThat(ownedByB).isBetween(1, ids.size() - 1);
              });

      // no plain HTTP on the TLS port
      assertThatThrownBy(
              () ->
                  StackSupport.HTTP.send(
                      HttpRequest.newBuilder(
                              URI.create("http://127.0.0.1:" + a.getPort() + "/api/tasks"))
                          .header("Authorization", "Bearer " + TOKEN)
                          .timeout(Duration.ofSeconds(5))
                          .build(),
                      HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(IOException.class);

      // the inter-instance token reads what instances forward, nothing else
      assertThat(
              get(https, a.getPort(), "/api/audit?forwarded=true", StackSupport.INTER_INSTANCE)
                  .statusCode())
          .isEqualTo(401);
      assertThat(
              get(https, a.getPort(), "/api/workers?forwarded=true", StackSupport.INTER_INSTANCE)
                  .statusCode())
          .isEqualTo(401);
    }
  }

  private static String forwarded(String id) {
    return "/api/tasks/" + id + "?forwarded=true&routingKey=" + id;
  }

  private static HttpResponse<String> get(HttpClient http, int port, String path, String token)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(15))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static SSLContext trusting(TestCertificates certs) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(certs.truststore())) {
      ks.load(in, certs.truststorePassword().toCharArray());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx;
  }
}
