package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's HTTP server (API, console, health) listens on 127.0.0.1 unless an address is
 * configured, like the relay's.
 */
@TasklaneStack
class BindAddressTest {
  @TempDir Path dir;

  @Test
  void theApiListensOnLoopbackOnlyByDefault(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, dir, "bind", 2);
    p.put("tasklane.scheduler.api.tokens", "v:" + Tokens.random() + ":viewer");
    try (EmbeddedServer s = ApplicationContext.run(EmbeddedServer.class, p)) {
      assertThat(
              StackSupport.HTTP
                  .send(
                      java.net.http.HttpRequest.newBuilder(
                              java.net.URI.create("http://127.0.0.1:" + s.getPort() + "/health"))
                          .build(),
                      java.net.http.HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isIn(200, 503);
      InetAddress external = nonLoopback();
      assertThatThrownBy(
              () -> {
                try (Socket socket = new Socket()) {
                  socket.connect(new InetSocketAddress(external, s.getPort()), 3_000);
                }
              })
          .as("connect to %s:%d", external, s.getPort())
          .isInstanceOf(ConnectException.class);
    }
  }

  private static InetAddress nonLoopback() throws Exception {
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (nic.isUp() && !nic.isLoopback()) {
        for (InetAddress a : Collections.list(nic.getInetAddresses())) {
          if (a instanceof Inet4Address && !a.isLinkLocalAddress()) {
            return a;
          }
        }
      }
    }
    throw new IllegalStateException("this machine has no non-loopback IPv4 address");
  }
}
