package io.tasklane.spring.internal;

import io.tasklane.outbox.OutboxSchema;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;

/**
 * Tasklane's own Flyway migrations (the outbox table), run when the bean is initialised, on the
 * start-up thread, before the JPA {@code EntityManagerFactory} and the worker: its own location
 * ({@link OutboxSchema#FLYWAY_LOCATION}, or the PostgreSQL one) and its own history table {@value
 * #HISTORY_TABLE}, so its versions never meet the application's {@code V1}, {@code V2}... A schema
 * that already holds the application's tables is baselined at version 0 first, so every Tasklane
 * migration still runs. Only with {@code tasklane.outbox.flyway.enabled=true}.
 */
final class TasklaneFlywayMigrations implements InitializingBean {
  static final String HISTORY_TABLE = "tasklane_schema_history";
  private static final Logger LOG = LoggerFactory.getLogger(TasklaneFlywayMigrations.class);

  private final DataSource dataSource;

  TasklaneFlywayMigrations(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public void afterPropertiesSet() throws SQLException {
    String location;
    try (Connection c = dataSource.getConnection()) {
      location =
          OutboxSchema.Dialect.of(c) == OutboxSchema.Dialect.POSTGRESQL
              ? OutboxSchema.POSTGRESQL_FLYWAY_LOCATION
              : OutboxSchema.FLYWAY_LOCATION;
    }
    MigrateResult result =
        Flyway.configure(TasklaneFlywayMigrations.class.getClassLoader())
            .dataSource(dataSource)
            .locations(location)
            .table(HISTORY_TABLE)
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .load()
            .migrate();
    LOG.info(
        "Tasklane outbox schema: {} migration(s) applied from {} (history {}){}",
        result.migrationsExecuted,
        location,
        HISTORY_TABLE,
        result.migrationsExecuted == 0
            ? ", up to date"
            : ", now at version " + result.targetSchemaVersion);
  }
}
