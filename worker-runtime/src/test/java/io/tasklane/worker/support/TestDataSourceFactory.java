package io.tasklane.worker.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.Closeable;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/**
 * A pooled MariaDB DataSource when {@code test.jdbc.url} is set (stands in for micronaut-jdbc);
 * {@code test.jdbc.options} ({@code &key=value...}) is appended to its URL. With {@code
 * test.jdbc.pool=hikari} a HikariCP pool instead. The beans are typed {@link DataSource} and named
 * {@code default} (as micronaut-jdbc's are), so micronaut-data can wrap them and give them a
 * transaction manager; the factory closes the pools.
 */
@Factory
@Requires(property = "test.jdbc.url")
public class TestDataSourceFactory {
  private final List<Closeable> pools = new CopyOnWriteArrayList<>();

  @Singleton
  @Named("default")
  @Requires(property = "test.jdbc.pool", notEquals = "hikari")
  DataSource dataSource(
      @Value("${test.jdbc.url}") String url,
      @Value("${test.jdbc.user}") String user,
      @Value("${test.jdbc.password}") String password,
      @Value("${test.jdbc.options:}") String options)
      throws SQLException {
    MariaDbPoolDataSource pool =
        new MariaDbPoolDataSource(
            url + "?user=" + user + "&password=" + password + "&maxPoolSize=16" + options);
    pools.add(pool::close);
    return pool;
  }

  /**
   * HikariCP, as micronaut-jdbc-hikari builds it, but started without a connection ({@code
   * initializationFailTimeout -1}) so a database that fails at start does not stop the application.
   */
  @Singleton
  @Named("default")
  @Requires(property = "test.jdbc.pool", value = "hikari")
  DataSource hikari(
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
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    return pool;
  }

  @PreDestroy
  void close() throws IOException {
    for (Closeable pool : pools) {
      pool.close();
    }
  }
}
