package io.tasklane.spring;

import io.tasklane.outbox.OutboxSchema;
import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** One test class's database on the shared stack (outbox and orders tables) and its contexts. */
final class TestDatabases {
  final LocalStack stack;
  final String jdbcUrl;

  TestDatabases(LocalStack stack) throws SQLException {
    this.stack = stack;
    this.jdbcUrl =
        stack.createDatabase("s_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
    try (Connection c = connection();
        Statement s = c.createStatement()) {
      OutboxSchema.create(c);
      s.execute(
          "CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, item VARCHAR(100) NOT NULL)");
    }
  }

  /** The datasource properties of a Spring app on this database, then {@code extra}. */
  List<String> properties(String... extra) {
    List<String> p = new ArrayList<>();
    p.add("spring.datasource.url=" + jdbcUrl);
    p.add("spring.datasource.username=" + stack.username());
    p.add("spring.datasource.password=" + stack.password());
    p.add("spring.datasource.hikari.maximum-pool-size=4");
    p.add("spring.jpa.hibernate.ddl-auto=none");
    p.add("spring.jpa.open-in-view=false");
    // Flyway is on the test classpath for FlywayMigrationsTest; these databases are made by hand
    p.add("spring.flyway.enabled=false");
    p.addAll(List.of(extra));
    return p;
  }

  ConfigurableApplicationContext run(Class<?> app, String... extra) {
    return new SpringApplicationBuilder(app)
        .web(WebApplicationType.NONE)
        .properties(properties(extra).toArray(String[]::new))
        .run();
  }

  Connection connection() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
  }

  long count(String query, String arg) throws SQLException {
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(query)) {
      if (arg != null) {
        ps.setString(1, arg);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
