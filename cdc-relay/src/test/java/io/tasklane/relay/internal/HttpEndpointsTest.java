package io.tasklane.relay.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.WireCodec;
import io.tasklane.relay.RelayConfig;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where {@code /health} and {@code /metrics} listen, and what {@code /health} tells anyone. */
class HttpEndpointsTest {

  @Test
  void listensOnLoopbackOnlyByDefault() throws Exception {
    try (RelayRuntime runtime = start(Map.of())) {
      InetAddress bound = runtime.httpAddress().getAddress();
      assertThat(bound.isLoopbackAddress()).as("bound to %s", bound).isTrue();
      assertThat(get(InetAddress.getLoopbackAddress(), runtime, "/metrics").statusCode())
          .isEqualTo(200);
      Optional<InetAddress> external = nonLoopbackAddress();
      if (external.isPresent()) {
        assertThatThrownBy(() -> new Socket(external.get(), runtime.httpPort()).close())
            .isInstanceOf(ConnectException.class);
      }
    }
  }

  @Test
  void listensWhereTheHttpHostSettingSays() throws Exception {
    try (RelayRuntime runtime = start(Map.of("tasklane.relay.http-host", "0.0.0.0"))) {
      assertThat(runtime.httpAddress().getAddress().isAnyLocalAddress()).isTrue();
      Optional<InetAddress> external = nonLoopbackAddress();
      if (external.isPresent()) {
        assertThat(get(external.get(), runtime, "/health").statusCode()).isEqualTo(200);
      }
    }
  }

  @Test
  void healthShowsTheStateButNoErrorText() throws Exception {
    try (RelayRuntime runtime = start(Map.of())) {
      await().atMost(Duration.ofSeconds(30)).until(() -> runtime.lastError() != null);
      String error = runtime.lastError();
      var response = get(InetAddress.getLoopbackAddress(), runtime, "/health");
      assertThat(response.statusCode()).isEqualTo(200);
      var body = WireCodec.readTree(response.body());
      assertThat(body.path("state").asText()).isIn("starting", "standby");
      assertThat(body.has("lastError")).isFalse();
      assertThat(response.body())
          .doesNotContain(error)
          .doesNotContainIgnoringCase("exception")
          .doesNotContain("127.0.0.1:1");
    }
  }

  @Test
  void slowClientsThatSendNothingOrHalfARequestDoNotStallHealth() throws Exception {
    try (RelayRuntime runtime = start(Map.of());
        Socket silent = new Socket(InetAddress.getLoopbackAddress(), runtime.httpPort());
        Socket half = new Socket(InetAddress.getLoopbackAddress(), runtime.httpPort());
        Socket halfAgain = new Socket(InetAddress.getLoopbackAddress(), runtime.httpPort())) {
      // Request lines without the end of their headers: each holds a server thread reading them.
      for (Socket s : List.of(half, halfAgain)) {
        s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(US_ASCII));
        s.getOutputStream().flush();
      }
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(get(InetAddress.getLoopbackAddress(), runtime, "/health").statusCode())
                      .isEqualTo(200));
      assertThat(get(InetAddress.getLoopbackAddress(), runtime, "/metrics").statusCode())
          .isEqualTo(200);
      assertThat(silent.isClosed()).isFalse();
    }
  }

  private static RelayRuntime start(Map<String, String> extra) {
    Map<String, String> p = new HashMap<>(extra);
    p.put("tasklane.relay.jdbc-url", "jdbc:mariadb://127.0.0.1:1/db"); // nothing listens
    p.put("tasklane.relay.username", "u");
    p.put("tasklane.relay.bootstrap-servers", "127.0.0.1:1");
    p.put("tasklane.relay.http-port", "0");
    RelayRuntime runtime = new RelayRuntime(RelayConfig.fromProperties(p), Clock.systemUTC());
    runtime.start();
    return runtime;
  }

  private static HttpResponse<String> get(InetAddress host, RelayRuntime runtime, String path)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://" + host.getHostAddress() + ":" + runtime.httpPort() + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** An IPv4 address of this machine that is not loopback, if it has one. */
  private static Optional<InetAddress> nonLoopbackAddress() throws Exception {
    for (NetworkInterface nif : NetworkInterface.networkInterfaces().toList()) {
      if (!nif.isUp() || nif.isLoopback()) {
        continue;
      }
      Optional<InetAddress> a =
          nif.inetAddresses().filter(x -> x instanceof Inet4Address).findFirst();
      if (a.isPresent()) {
        return a;
      }
    }
    return Optional.empty();
  }
}
