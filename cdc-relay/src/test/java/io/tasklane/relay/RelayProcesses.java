package io.tasklane.relay;

import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Starts {@link RelayApp} as a separate JVM on the module's runtime classpath (app.classpath). */
final class RelayProcesses {
  private RelayProcesses() {}

  /** target/classes plus target/app.classpath: what a user deploys, without test jars. */
  static String appClasspath() throws IOException {
    Path target = Path.of("target");
    String deps = Files.readString(target.resolve("app.classpath")).trim();
    return target.resolve("classes").toAbsolutePath() + java.io.File.pathSeparator + deps;
  }

  /** Starts RelayApp with the fixture's settings; {@code extra} key/value pairs override. */
  static JavaProcess start(RelayFixture fx, String name, Path portFile, String... extra)
      throws IOException {
    return start(fx.properties(extra), name, portFile);
  }

  /** Starts RelayApp on the PostgreSQL fixture's database; {@code extra} pairs override. */
  static JavaProcess start(PgRelayFixture fx, String name, Path portFile, String... extra)
      throws IOException {
    return start(fx.properties(extra), name, portFile);
  }

  /** Starts RelayApp with {@code properties} (the password through the environment). */
  static JavaProcess start(Map<String, String> properties, String name, Path portFile)
      throws IOException {
    Files.deleteIfExists(portFile);
    var b =
        JavaProcess.builder("io.tasklane.relay.RelayApp")
            .classpath(appClasspath())
            .name("relay-" + name)
            .jvmArg("-Xmx384m")
            .jvmArg("-XX:TieredStopAtLevel=1")
            .sysProp("org.slf4j.simpleLogger.showDateTime", "true")
            .sysProp("tasklane.relay.http-port-file", portFile.toAbsolutePath().toString());
    for (Map.Entry<String, String> e : properties.entrySet()) {
      if (e.getKey().equals("tasklane.relay.password")) {
        b.env("TASKLANE_RELAY_PASSWORD", e.getValue()); // exercises the environment layer
      } else {
        b.sysProp(e.getKey(), e.getValue());
      }
    }
    return b.start();
  }

  /** {@link #state}, failing at once with the log tail when the process died. */
  static String state(JavaProcess process, Path portFile) {
    if (!process.isAlive()) {
      throw new AssertionError(process + " died:\n" + process.logTail(40));
    }
    return state(portFile);
  }

  /** {@code GET path} of the process's HTTP port, or null when it does not answer. */
  static String get(Path portFile, String path) {
    try {
      int port = Integer.parseInt(Files.readString(portFile).trim());
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException | RuntimeException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The {@code state} of {@code /health}, or "down" when the process does not answer. */
  static String state(Path portFile) {
    try {
      if (!Files.exists(portFile)) {
        return "down";
      }
      int port = Integer.parseInt(Files.readString(portFile).trim());
      var response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return WireCodec.readTree(response.body()).path("state").asText();
    } catch (IOException | RuntimeException e) {
      return "down";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "down";
    }
  }
}
