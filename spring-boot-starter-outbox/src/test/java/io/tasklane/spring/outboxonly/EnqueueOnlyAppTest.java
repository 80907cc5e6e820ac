package io.tasklane.spring.outboxonly;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The enqueue-only dependency set: this artifact's runtime classpath holds neither the Kafka client
 * nor its compression libraries nor the worker, and a Spring Boot application on exactly that set
 * (plus Spring JDBC, HikariCP and the MariaDB driver) enqueues in a transaction on the shared
 * MariaDB, records an {@code @OutboxAsync} call, and never loads a Kafka class.
 */
@TasklaneStack
class EnqueueOnlyAppTest {
  private static final List<String> FORBIDDEN =
      List.of("kafka-clients", "zstd-jni", "snappy-java", "lz4-java", "tasklane-worker-core");

  /** This artifact's runtime dependency set (target/app.classpath, by maven-dependency-plugin). */
  private static List<String> runtimeClasspath() throws Exception {
    String cp = Files.readString(Paths.get("target/app.classpath")).strip();
    return List.of(cp.split(File.pathSeparator));
  }

  @Test
  void theEnqueueOnlySetHasNoKafkaClientNoCompressionLibraryAndNoWorker() throws Exception {
    List<String> jars = runtimeClasspath();
    long bytes = 0;
    for (String jar : jars) {
      String name = Paths.get(jar).getFileName().toString();
      for (String forbidden : FORBIDDEN) {
        assertThat(name).as("enqueue-only dependency set").doesNotStartWith(forbidden + "-");
      }
      bytes += Files.size(Paths.get(jar));
    }
    assertThat(jars).anyMatch(j -> j.contains("tasklane-outbox-"));
    assertThat(jars).anyMatch(j -> j.contains("tasklane-spring-boot-starter-"));
    System.out.printf("enqueue-only dependency set: %d jars, %.1f MB%n", jars.size(), bytes / 1e6);
  }

  @Test
  void anApplicationOnTheEnqueueOnlySetEnqueuesWithoutLoadingKafka(LocalStack stack)
      throws Exception {
    String url =
        stack.createDatabase("eo_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8));
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      io.tasklane.outbox.OutboxSchema.create(c);
    }
    List<String> cp = new ArrayList<>(runtimeClasspath());
    for (Class<?> c :
        List.of(
            JdbcTemplate.class,
            TransactionTemplate.class,
            HikariDataSource.class,
            org.mariadb.jdbc.Driver.class)) {
      cp.add(Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }
    cp.add(Paths.get("target/test-classes").toAbsolutePath().toString());
    Path out = Files.createTempFile("enqueue-only", ".log");
    Process p =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                String.join(File.pathSeparator, cp),
                EnqueueOnlyApp.class.getName(),
                url,
                stack.username(),
                stack.password())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String log = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue())
        .as("exit status (3: a Kafka class loaded, 4: a worker)\n%s", log)
        .isZero();
    String line = log.lines().filter(l -> l.startsWith("ENQUEUED ")).findFirst().orElseThrow();
    String[] ids = line.substring("ENQUEUED ".length()).split(" ");
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        PreparedStatement ps =
            c.prepareStatement("SELECT handler FROM tasklane_outbox ORDER BY id");
        ResultSet rs = ps.executeQuery()) {
      List<String> handlers = new ArrayList<>();
      while (rs.next()) {
        handlers.add(rs.getString(1));
      }
      assertThat(handlers).containsExactly("order.ship", "order.ship", "tasklane.method");
    }
    assertThat(ids).hasSize(2);
  }
}
