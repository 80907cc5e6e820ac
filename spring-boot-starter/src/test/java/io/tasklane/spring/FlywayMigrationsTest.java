package io.tasklane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.spring.jdbcapp.JdbcApp;
import io.tasklane.spring.jdbcapp.JdbcOrderService;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Flyway on the shared MariaDB: an application with its own {@code V1} in Flyway's default location
 * and the starter never meets Tasklane's migrations by accident (no outbox table, no clash); with
 * {@code tasklane.outbox.flyway.enabled=true} Tasklane's migrations run beside the application's,
 * in their own history table, and the outbox works; a restart applies nothing twice.
 */
@TasklaneStack
class FlywayMigrationsTest {

  @Test
  void withoutTheOptInOnlyTheApplicationsMigrationsRun(LocalStack stack) throws Exception {
    String url = database(stack);
    try (ConfigurableApplicationContext ctx = run(stack, url)) {
      assertThat(query(stack, url, "SELECT version FROM flyway_schema_history WHERE success = 1"))
          .containsExactly("1");
      assertThat(tables(stack, url)).contains("orders").doesNotContain("tasklane_outbox");
      assertThat(tables(stack, url)).doesNotContain("tasklane_schema_history");
    }
  }

  @Test
  void withTheOptInTasklanesMigrationsRunInTheirOwnHistory(LocalStack stack) throws Exception {
    String url = database(stack);
    try (ConfigurableApplicationContext ctx =
        run(stack, url, "tasklane.outbox.flyway.enabled=true")) {
      assertThat(query(stack, url, "SELECT version FROM flyway_schema_history WHERE success = 1"))
          .as("the application's history holds only its own V1")
          .containsExactly("1");
      assertThat(
              query(
                  stack,
                  url,
                  "SELECT version FROM tasklane_schema_history WHERE success = 1"
                      + " AND type = 'SQL' ORDER BY installed_rank"))
          .containsExactly("1", "2", "3");
      assertThat(tables(stack, url))
          .as("version 3: the unique windows")
          .contains("tasklane_unique");
      assertThat(
              query(
                  stack,
                  url,
                  "SELECT column_name FROM information_schema.columns WHERE table_schema ="
                      + " DATABASE() AND table_name = 'tasklane_outbox' AND column_name ="
                      + " 'options'"))
          .as("schema version 2")
          .hasSize(1);
      String id = ctx.getBean(JdbcOrderService.class).place("flyway-book");
      assertThat(query(stack, url, "SELECT task_id FROM tasklane_outbox")).containsExactly(id);
    }
    List<String> history = query(stack, url, "SELECT COUNT(*) FROM tasklane_schema_history");
    try (ConfigurableApplicationContext ctx =
        run(stack, url, "tasklane.outbox.flyway.enabled=true")) {
      assertThat(query(stack, url, "SELECT COUNT(*) FROM tasklane_schema_history"))
          .as("a restart applies nothing twice")
          .isEqualTo(history);
    }
  }

  private static String database(LocalStack stack) {
    return stack.createDatabase(
        "f_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
  }

  private static ConfigurableApplicationContext run(LocalStack stack, String url, String... extra) {
    List<String> p = new ArrayList<>();
    p.add("spring.datasource.url=" + url);
    p.add("spring.datasource.username=" + stack.username());
    p.add("spring.datasource.password=" + stack.password());
    p.add("spring.datasource.hikari.maximum-pool-size=4");
    p.addAll(List.of(extra));
    return new SpringApplicationBuilder(JdbcApp.class)
        .web(WebApplicationType.NONE)
        .properties(p.toArray(String[]::new))
        .run();
  }

  private static List<String> tables(LocalStack stack, String url) throws Exception {
    return query(
        stack,
        url,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()");
  }

  private static List<String> query(LocalStack stack, String url, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
