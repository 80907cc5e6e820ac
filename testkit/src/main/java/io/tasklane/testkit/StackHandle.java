package io.tasklane.testkit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The stack contract that integration suites are written against: a MySQL-family database with ROW
 * binlogs and a Kafka broker. Implemented by {@link LocalStack} (real local processes) and {@link
 * ContainersStack} (Docker). Get one with {@link Stacks#shared()} or a {@code StackHandle}
 * parameter under {@link TasklaneStack}. Implementations are safe to use from any thread.
 */
public interface StackHandle {

  /** JDBC URL of the default database {@code tasklane}. */
  String jdbcUrl();

  /** JDBC URL of {@code database} (which must exist; see {@link #createDatabase}). */
  String jdbcUrl(String database);

  /** The app user; it has ALL on the stack's databases and the global grants CDC needs. */
  String username();

  String password();

  /** Kafka bootstrap servers, e.g. {@code 127.0.0.1:40123}. */
  String bootstrapServers();

  /**
   * Creates a fresh (dropped and re-created) database the app user owns and returns its JDBC URL.
   * Tests isolate themselves by database name and topic prefix.
   */
  String createDatabase(String name);

  /**
   * Creates a topic with replication factor 1 (auto-creation is off); blocks up to 30 s.
   *
   * @throws IllegalStateException if the broker refuses or does not answer
   */
  default void createTopic(String name, int partitions) {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("creating topic " + name + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + name, e);
    }
  }
}
