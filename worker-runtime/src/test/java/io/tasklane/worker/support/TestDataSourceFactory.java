package io.tasklane.worker.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/**
 * A pooled MariaDB DataSource when {@code test.jdbc.url} is set (stands in for micronaut-jdbc);
 * {@code test.jdbc.options} ({@code &key=value...}) is appended to its URL. With {@code
 * test.jdbc.pool=hikari} a HikariCP pool instead.
 */
@Factory
@Requires(property = "test.jdbc.url")
public class TestDataSourceFactory {
  @Singleton
  @Bean(preDestroy = "close")
  @Requires(property = "test.jdbc.pool", notEquals = "hikari")
  MariaDbPoolDataSource dataSource(
      @Value("${test.jdbc.url}") String url,
      @Value("${test.jdbc.user}") String user,
      @Value("${test.jdbc.password}") String password,
      @Value("${test.jdbc.options:}") String options)
      throws SQLException {
    return new MariaDbPoolDataSource(
        url + "?user=" + user + "&password=" + password + "&maxPoolSize=16" + options);
  }

  /**
   * HikariCP, as micronaut-jdbc-hikari builds it, but started without a connection ({@code
   * initializationFailTimeout -1}) so a database that fails at start does not stop the application.
   */
  @Singleton
  @Bean(preDestroy = "close")
  @Requires(property = "test.jdbc.pool", value = "hikari")
  HikariDataSource hikari(
      @Value("${test.jdbc.url}") String url,
      @Value("${test.jdbc.user}") String user,
      @Value("${test.jdbc.password}") String password) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(8);
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(2_000);
    return new HikariDataSource(config);
  }
}
