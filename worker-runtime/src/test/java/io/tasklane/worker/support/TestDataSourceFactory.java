package io.tasklane.worker.support;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/** A pooled MariaDB DataSource when {@code test.jdbc.url} is set (stands in for micronaut-jdbc). */
@Factory
@Requires(property = "test.jdbc.url")
public class TestDataSourceFactory {
  @Singleton
  @Bean(preDestroy = "close")
  MariaDbPoolDataSource dataSource(
      @Value("${test.jdbc.url}") String url,
      @Value("${test.jdbc.user}") String user,
      @Value("${test.jdbc.password}") String password)
      throws SQLException {
    return new MariaDbPoolDataSource(
        url + "?user=" + user + "&password=" + password + "&maxPoolSize=16");
  }
}
