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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /health} (JSON; 200 unless FAILED/STOPPED) and {@code GET /metrics} (Prometheus text)
 * on the JDK's HTTP server, {@link #THREADS} daemon threads, bound to {@link
 * RelayConfig#httpHost()} (loopback by default). A client that sends a request slowly or not at all
 * holds at most one thread, so {@code /health} still answers; the JDK server closes a connection
 * whose request is not read within {@link #MAX_REQUEST_SECONDS} s or whose response is not taken
 * within {@link #MAX_RESPONSE_SECONDS} s (set unless the JVM sets {@code
 * sun.net.httpserver.maxReqTime} / {@code maxRspTime} itself; they apply when this is the JVM's
 * first JDK HTTP server, as in the relay's own process). Neither endpoint is authenticated, so
 * {@code /health} shows the state and counters but never error text: the last error is in the log
 * and {@code Relay.status()}.
 */
final class HttpEndpoints implements AutoCloseable {
  static final int THREADS = 4;
  static final int MAX_REQUEST_SECONDS = 5;
  static final int MAX_RESPONSE_SECONDS = 10;

  static {
    if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
      System.setProperty("sun.net.httpserver.maxReqTime", String.valueOf(MAX_REQUEST_SECONDS));
    }
    if (System.getProperty("sun.net.httpserver.maxRspTime") == null) {
      System.setProperty("sun.net.httpserver.maxRspTime", String.valueOf(MAX_RESPONSE_SECONDS));
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private HttpEndpoints(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
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
      AtomicInteger n = new AtomicInteger();
      ExecutorService executor =
          Executors.newFixedThreadPool(
              THREADS,
              r -> {
                Thread t = new Thread(r, "tasklane-relay-http-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      server.setExecutor(executor);
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
      return new HttpEndpoints(server, executor);
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
    executor.shutdownNow();
  }
}
