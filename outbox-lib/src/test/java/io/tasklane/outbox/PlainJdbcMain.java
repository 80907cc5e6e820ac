package io.tasklane.outbox;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;

/**
 * Enqueues one task over plain JDBC; run by {@link OptionalDependenciesTest} on a classpath without
 * Micronaut, Hibernate, jakarta.persistence or OpenTelemetry.
 */
public final class PlainJdbcMain {
  private PlainJdbcMain() {}

  public static void main(String[] args) throws Exception {
    for (String absent :
        new String[] {
          "io.micronaut.core.annotation.Internal",
          "org.hibernate.Session",
          "jakarta.persistence.EntityManager",
          "io.opentelemetry.api.trace.Span"
        }) {
      try {
        Class.forName(absent);
        throw new IllegalStateException(absent + " is on the classpath");
      } catch (ClassNotFoundException expected) {
        System.out.println("absent: " + absent);
      }
    }
    try (Connection c = DriverManager.getConnection(args[0], args[1], args[2])) {
      c.setAutoCommit(false);
      String id =
          JdbcTaskOutbox.of(c)
              .enqueue(TaskRequest.to("plain.jdbc").payload(Map.of("a", 1)).key("plain"));
      c.commit();
      System.out.println("enqueued " + id);
    }
  }
}
