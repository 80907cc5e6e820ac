package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The classpath of the broker JVM: this module's own classes (for {@link BrokerMain}) plus the jars
 * listed in {@code io/tasklane/testkit/broker.classpath}, which Maven writes at build time.
 * Stateless; any thread.
 */
public final class BrokerClasspath {

  static final String RESOURCE = "/io/tasklane/testkit/broker.classpath";

  private BrokerClasspath() {}

  /** The full classpath string; fails if the resource or one of its jars is missing. */
  public static String get() {
    String jars;
    try (InputStream in = BrokerClasspath.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new LocalStackException(
            "Kafka: resource "
                + RESOURCE
                + " is missing; build testkit with Maven (./mvnw -pl testkit install -DskipTests)");
      }
      jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new LocalStackException("Kafka: cannot read " + RESOURCE + ": " + e, e);
    }
    for (String jar : jars.split(File.pathSeparator)) {
      if (!jar.isBlank() && !Files.exists(Path.of(jar))) {
        throw new LocalStackException(
            "Kafka: broker classpath entry "
                + jar
                + " is missing; rebuild testkit (./mvnw -pl testkit install -DskipTests)");
      }
    }
    return self() + File.pathSeparator + jars;
  }

  private static String self() {
    try {
      return Path.of(BrokerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException | RuntimeException e) {
      throw new LocalStackException("Kafka: cannot locate the testkit classes: " + e, e);
    }
  }
}
