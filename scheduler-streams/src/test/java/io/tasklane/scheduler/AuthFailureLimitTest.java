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
import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Failed authentications on the real app: limited per client address (each test's hostile client
 * connects from its own loopback address, the well-behaved one from 127.0.0.1), audited with the
 * address and the path, never the token.
 */
@TasklaneStack
class AuthFailureLimitTest {
  /** What {@code AuthFailures} lets one address fail at once. */
  static final int BURST = 10;

  @TempDir static Path stateDir;

  static EmbeddedServer server;
  static int port;
  static final ListAppender<ILoggingEvent> AUDIT = new ListAppender<>();
  static final Logger AUDIT_LOGGER =
      (Logger) LoggerFactory.getLogger("io.tasklane.scheduler.audit");

  @BeforeAll
  static void start(LocalStack stack) {
    Topics topics = StackSupport.uniqueTopics();
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, stateDir, "a", 1);
    p.put(
        "tasklane.scheduler.api.tokens",
        "dash:" + VIEWER + ":viewer,ops:" + OPERATOR + ":operator");
    AUDIT.start();
    AUDIT_LOGGER.addAppender(AUDIT);
    server = ApplicationContext.run(EmbeddedServer.class, p);
    port = server.getPort();
  }

  @AfterAll
  static void stop() {
    AUDIT_LOGGER.detachAppender(AUDIT);
    if (server != null) {
      server.close();
    }
  }

  record Answer(int status, Map<String, String> headers, String body) {}

  /** One HTTP/1.1 exchange over a socket bound to the loopback address {@code from}. */
  static Answer call(String from, String method, String path, String bearer, String json)
      throws Exception {
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
      s.setSoTimeout(30_000);
      byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
      StringBuilder head =
          new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n");
      head.append("Connection: close\r\nContent-Length: ").append(body.length).append("\r\n");
      if (json != null) {
        head.append("Content-Type: application/json\r\n");
      }
      if (bearer != null) {
        head.append("Authorization: Bearer ").append(bearer).append("\r\n");
      }
      OutputStream out = s.getOutputStream();
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
      out.write(body);
      out.flush();
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = answer.indexOf("\r\n\r\n");
      String[] lines = answer.substring(0, end).split("\r\n");
      Map<String, String> headers = new java.util.HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
      return new Answer(
          Integer.parseInt(lines[0].split(" ")[1]), headers, answer.substring(end + 4));
    }
  }

  static Answer signIn(String from, String token) throws Exception {
    return call(from, "POST", "/api/session", null, "{\"token\":\"" + token + "\"}");
  }

  private static List<String> auditLines() {
    return AUDIT.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void anAddressFailingTooOftenGets429WhileAnotherStillSignsInAndCalls() throws Exception {
    String bad = Tokens.random();
    int failures = 0;
    Answer refused = signIn("127.0.0.2", bad);
    while (refused.status() == 401 && failures < 10 * BURST) {
      failures++;
      refused = signIn("127.0.0.2", bad);
    }
    assertThat(refused.status()).as("sign-ins refused after %d failures", failures).isEqualTo(429);
    Answer other = signIn("127.0.0.1", OPERATOR);
    assertThat(other.status()).as("another address signs in: " + other.body()).isEqualTo(200);
    assertThat(other.headers().get("set-cookie")).contains("tasklane_session=");
    assertThat(failures).isEqualTo(BURST);

    Answer limited = call("127.0.0.2", "GET", "/api/handlers", bad, null);
    assertThat(limited.status()).as("bearer calls share the address's limit").isEqualTo(429);
    assertThat(Long.parseLong(limited.headers().get("retry-after"))).isBetween(1L, 60L);
    assertThat(limited.body()).contains("too-many-failures").doesNotContain(bad);
    Answer limitedSignIn = signIn("127.0.0.2", OPERATOR);
    assertThat(limitedSignIn.status()).as("even a good token, until it may retry").isEqualTo(429);
    assertThat(limitedSignIn.headers()).containsKey("retry-after");

    assertThat(call("127.0.0.1", "GET", "/api/handlers", VIEWER, null).status()).isEqualTo(200);
    assertThat(call("127.0.0.1", "GET", "/api/session", OPERATOR, null).body())
        .contains("\"name\":\"ops\"");
    assertThat(signIn("127.0.0.1", VIEWER).status()).isEqualTo(200);
  }

  @Test
  void refusedCallsAreAuditedWithTheClientAddressThePathAndTheReasonButNotTheToken()
      throws Exception {
    String bad = Tokens.random();
    assertThat(call("127.0.0.3", "DELETE", "/api/tasks/x", bad, null).status()).isEqualTo(401);
    assertThat(call("127.0.0.3", "GET", "/api/handlers", bad, null).status()).isEqualTo(401);
    assertThat(signIn("127.0.0.3", bad).status()).isEqualTo(401);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(auditLines())
                    .anySatisfy(
                        l ->
                            assertThat(l)
                                .contains("action=DELETE /api/tasks/x", "refused", "127.0.0.3"))
                    .anySatisfy(
                        l ->
                            assertThat(l)
                                .contains("action=GET /api/handlers", "refused", "127.0.0.3"))
                    .anySatisfy(
                        l ->
                            assertThat(l)
                                .contains("action=session-sign-in", "refused", "127.0.0.3")));
    for (int i = 3; i < BURST; i++) {
      call("127.0.0.3", "GET", "/api/handlers", bad, null);
    }
    for (int i = 0; i < 5; i++) {
      assertThat(call("127.0.0.3", "GET", "/api/handlers", bad, null).status()).isEqualTo(429);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(auditLines())
                    .filteredOn(l -> l.contains("127.0.0.3") && l.contains("too many"))
                    .as("the limit is audited once, not every refusal")
                    .hasSize(1));
    assertThat(auditLines()).noneMatch(l -> l.contains(bad));
  }
}
