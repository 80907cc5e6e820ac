package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.env.Environment;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.reflect.ClassUtils;
import io.micronaut.core.value.PropertyResolver;
import io.tasklane.core.config.MicronautFileLayer;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.JdbcIdempotencyStore;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import io.tasklane.worker.internal.WorkerSettings;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's beans made from the Micronaut context: its {@link WorkerSettings}, read from the
 * context's environment, and the default {@link IdempotencyStore}: a {@link JdbcIdempotencyStore}
 * on the application's DataSource bean, creating its table at start-up unless {@code
 * tasklane.worker.idempotency.create-table} is false (if the database fails at start-up the table
 * is created before the first attempt that finds it answering, and the worker starts). Off with
 * {@code tasklane.worker.idempotency.enabled=false}; replaced by any IdempotencyStore bean of the
 * app.
 */
@Factory
@Internal
public class WorkerFactory {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerFactory.class);

  /**
   * {@code tasklane.worker.*} from the environment variables, the system properties and every other
   * property source of {@code env} (placeholders resolved), in that order; micronaut-kafka's {@code
   * kafka.bootstrap.servers} when none sets the bootstrap servers.
   */
  @Singleton
  WorkerSettings workerSettings(Environment env) {
    return WorkerSettings.of(
        MicronautFileLayer.read(env, WorkerConfig.PREFIX + "."),
        System.getProperties(),
        System.getenv(),
        env.get("kafka.bootstrap.servers", String.class).orElse(null));
  }

  @Singleton
  @Requires(beans = DataSource.class)
  @Requires(missingBeans = IdempotencyStore.class)
  @Requires(property = "tasklane.worker.idempotency.enabled", notEquals = "false")
  JdbcIdempotencyStore jdbcIdempotencyStore(
      DataSource dataSource, PropertyResolver env, Optional<Clock> clock, BeanContext beans) {
    JdbcIdempotencyStore store =
        new JdbcIdempotencyStore(unwrap(dataSource, beans), clock.orElse(Clock.systemUTC()));
    if (env.get("tasklane.worker.idempotency.create-table", Boolean.class).orElse(true)) {
      WorkerException deferred = store.createTableOrDefer();
      if (deferred != null) {
        LOG.warn(
            "{}; the worker starts anyway: every attempt fails (FAILED, retried by the scheduler)"
                + " until the database answers, then the table is created"
                + " (tasklane.worker.idempotency.create-table)",
            deferred.getMessage());
      }
    }
    return store;
  }

  /**
   * The pool behind a transaction-aware proxy. With micronaut-data on the classpath the DataSource
   * bean only hands out the connection of the current Micronaut transaction; the worker runs its
   * own transactions, so it needs the real pool.
   */
  static DataSource unwrap(DataSource dataSource, BeanContext beans) {
    if (!ClassUtils.isPresent("io.micronaut.jdbc.DataSourceResolver", null)) {
      return dataSource;
    }
    return Resolver.resolve(dataSource, beans);
  }

  /** Loaded only when micronaut-jdbc is present. */
  private static final class Resolver {
    static DataSource resolve(DataSource dataSource, BeanContext beans) {
      return beans
          .findBean(io.micronaut.jdbc.DataSourceResolver.class)
          .map(r -> r.resolve(dataSource))
          .orElse(dataSource);
    }
  }
}
