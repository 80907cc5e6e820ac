package io.tasklane.relay.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tasklane.core.WireCodec;
import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.RelayException;
import io.tasklane.relay.RelayState;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * {@code GET /health} (JSON; 200 unless FAILED/STOPPED) and {@code GET /metrics} (Prometheus text)
 * on the JDK's HTTP server, one small daemon thread, bound to {@link RelayConfig#httpHost()}
 * (loopback by default). Neither is authenticated, so {@code /health} shows the state and counters
 * but never error text: the last error is in the log and {@code Relay.status()}.
 */
final class HttpEndpoints implements AutoCloseable {
  private final HttpServer server;

  private HttpEndpoints(HttpServer server) {
    this.server = server;
  }

  static HttpEndpoints start(RelayConfig config, RelayRuntime runtime) {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(config.httpHost(), config.httpPort()), 16);
      server.createContext("/health", ex -> health(ex, config, runtime));
      server.createContext(
          "/metrics",
          ex ->
              respond(
                  ex, 200, "text/plain; version=0.0.4; charset=utf-8", runtime.metrics().scrape()));
      server.setExecutor(
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "tasklane-relay-http");
                t.setDaemon(true);
                return t;
              }));
      server.start();
      if (config.httpPortFile() != null) {
        Path file = Path.of(config.httpPortFile());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, String.valueOf(server.getAddress().getPort()));
        Files.move(
            tmp,
            file,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      }
      return new HttpEndpoints(server);
    } catch (IOException e) {
      throw new RelayException(
          "cannot serve HTTP on "
              + config.httpHost()
              + " port "
              + config.httpPort()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  private static void health(HttpExchange ex, RelayConfig config, RelayRuntime runtime)
      throws IOException {
    RelayState state = runtime.state();
    RelayMetrics m = runtime.metrics();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("state", state.wireName());
    body.put("leader", state == RelayState.LEADER || state == RelayState.STREAMING);
    body.put("streaming", state == RelayState.STREAMING);
    body.put("database", config.database());
    body.put("name", config.name());
    body.put("relayed", m.relayed());
    body.put("deadLettered", m.deadLettered());
    body.put("ignored", m.ignored());
    body.put("purged", m.purged());
    body.put("watermark", m.watermarkValue());
    body.put("binlogRecoveries", m.binlogRecoveryCount());
    body.put("missingColumns", m.missingColumnNames());
    body.put("missingTopics", m.missingTopicNames());
    if (m.postgres()) {
      // A flag and a count, never the guard's message: the details are in the log.
      body.put("slotWarning", m.slotWarned());
      body.put("slotRecoveries", m.slotRecoveryCount());
    }
    int status = state == RelayState.FAILED || state == RelayState.STOPPED ? 503 : 200;
    respond(ex, status, "application/json", WireCodec.encodeToString(body));
  }

  private static void respond(HttpExchange ex, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
