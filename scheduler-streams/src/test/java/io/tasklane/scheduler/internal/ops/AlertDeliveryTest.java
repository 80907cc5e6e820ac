package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tasklane.scheduler.AlertConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The webhook post itself, against a local receiver: a delivery id per alert kept on retries, a
 * fresh timestamp per attempt, a signature over both and the body, and log lines that never show
 * the secret path of a Slack-style URL.
 */
class AlertDeliveryTest {
  static final String SECRET = "k9Qx2vLr7TzWm4Bn8YpJc3Hd6Fs1Ga5E";
  static final String PATH_SECRET = "Xq7sLr9TzWm4Bn8YpJc3Hd6F";

  record Post(byte[] body, String delivery, String timestamp, String signature) {}

  @Test
  void eachAttemptIsSignedOverTheDeliveryIdItsOwnTimestampAndTheBody() throws Exception {
    WorkerGroupWatcherTest.HandClock clock = new WorkerGroupWatcherTest.HandClock();
    List<Post> posts = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    String path = "/services/T0001/B0002/" + PATH_SECRET;
    receiver.createContext(
        path,
        ex -> {
          posts.add(
              new Post(
                  ex.getRequestBody().readAllBytes(),
                  ex.getRequestHeaders().getFirst("X-Tasklane-Delivery"),
                  ex.getRequestHeaders().getFirst("X-Tasklane-Timestamp"),
                  ex.getRequestHeaders().getFirst("X-Tasklane-Signature")));
          clock.millis += 1_000; // the retry goes out later
          ex.sendResponseHeaders(calls.incrementAndGet() == 1 ? 503 : 204, -1);
          ex.close();
        });
    receiver.start();
    URI url = URI.create("http://localhost:" + receiver.getAddress().getPort() + path);
    AlertConfig config =
        new AlertConfig(url, SECRET, true, null, List.of("*"), 10, List.of(), null, null);
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    root.addAppender(lines);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (AlertDelivery delivery = new AlertDelivery(config, clock, registry, "test")) {
      Alerts alerts = new Alerts(config, clock, registry, delivery);
      delivery.start(alerts);
      alerts.dead("mail.send", "t1", "attempts exhausted");
      await().atMost(Duration.ofSeconds(20)).until(() -> posts.size() == 2);
    } finally {
      root.detachAppender(lines);
      receiver.stop(0);
    }

    Post first = posts.get(0);
    Post retry = posts.get(1);
    assertThat(first.delivery()).isNotBlank().isEqualTo(retry.delivery());
    assertThat(Long.parseLong(retry.timestamp())).isGreaterThan(Long.parseLong(first.timestamp()));
    for (Post p : posts) {
      assertThat(
              AlertSignature.verify(SECRET, p.delivery(), p.timestamp(), p.body(), p.signature()))
          .isTrue();
    }
    // The first post replayed with the retry's fresh timestamp does not verify.
    assertThat(
            AlertSignature.verify(
                SECRET, first.delivery(), retry.timestamp(), first.body(), first.signature()))
        .isFalse();

    List<String> logged = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(logged).anyMatch(l -> l.contains("/services/***") && l.contains("status 503"));
    assertThat(logged).noneMatch(l -> l.contains(PATH_SECRET) || l.contains("B0002"));
    assertThat(config.toString()).contains("/services/***").doesNotContain(PATH_SECRET);
  }
}
