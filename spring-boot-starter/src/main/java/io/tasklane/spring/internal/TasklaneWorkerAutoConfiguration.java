package io.tasklane.spring.internal;

import io.tasklane.spring.TasklaneWorkerProperties;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.JdbcIdempotencyStore;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import io.tasklane.worker.internal.WorkerRuntime;
import io.tasklane.worker.internal.WorkerSettings;
import io.tasklane.worker.spi.WorkerMetrics;
import io.tasklane.worker.spi.WorkerTransactions;
import java.time.Clock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;
import org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The worker, when the context has a handler bean and {@code tasklane.worker.enabled} is not false:
 * its settings read from the Spring {@code Environment} by the neutral reader (the same validation,
 * defaults and refusal of unknown {@code tasklane.worker.*} keys as on Micronaut; {@code
 * spring.kafka.bootstrap-servers} when {@code tasklane.worker.bootstrap-servers} is unset), the
 * handler beans found in the context, the {@link JdbcIdempotencyStore} on the application's
 * DataSource with its transactions run by the application's {@link PlatformTransactionManager}, and
 * a {@link SpringWorker} that starts and stops it with the context. An {@link IdempotencyStore},
 * {@link WorkerMetrics} or {@link Clock} bean of the application replaces the default.
 */
@AutoConfiguration(
    after = {
      DataSourceAutoConfiguration.class,
      HibernateJpaAutoConfiguration.class,
      DataSourceTransactionManagerAutoConfiguration.class,
      TransactionAutoConfiguration.class,
      TasklaneOutboxAutoConfiguration.class
    })
@ConditionalOnProperty(
    prefix = WorkerConfig.PREFIX,
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@ConditionalOnClass(
    value = {PlatformTransactionManager.class, DataSourceUtils.class},
    name = "io.tasklane.worker.internal.WorkerRuntime")
@Conditional(OnHandlerBeans.class)
@EnableConfigurationProperties(TasklaneWorkerProperties.class)
public class TasklaneWorkerAutoConfiguration {
  private static final Logger LOG = LoggerFactory.getLogger(TasklaneWorkerAutoConfiguration.class);

  /** {@code tasklane.worker.*}: environment variables, system properties, then Spring's sources. */
  @Bean
  WorkerSettings tasklaneWorkerSettings(ConfigurableEnvironment env) {
    return WorkerSettings.of(
        SpringFileLayer.read(env, WorkerConfig.PREFIX + "."),
        System.getProperties(),
        System.getenv(),
        env.getProperty("spring.kafka.bootstrap-servers"));
  }

  @Bean
  @ConditionalOnMissingBean(IdempotencyStore.class)
  @ConditionalOnBean({DataSource.class, PlatformTransactionManager.class})
  @ConditionalOnProperty(
      prefix = WorkerConfig.PREFIX + ".idempotency",
      name = "enabled",
      havingValue = "true",
      matchIfMissing = true)
  JdbcIdempotencyStore tasklaneIdempotencyStore(
      DataSource dataSource,
      PlatformTransactionManager transactions,
      ObjectProvider<Clock> clock,
      ConfigurableEnvironment env) {
    WorkerTransactions inSpring = new SpringWorkerTransactions(transactions, dataSource);
    JdbcIdempotencyStore store =
        new JdbcIdempotencyStore(dataSource, clock.getIfAvailable(Clock::systemUTC), inSpring);
    if (env.getProperty(WorkerConfig.PREFIX + ".idempotency.create-table", Boolean.class, true)) {
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

  @Bean
  SpringWorker tasklaneWorker(
      WorkerSettings settings,
      ConfigurableListableBeanFactory beans,
      ObjectProvider<IdempotencyStore> store,
      ObjectProvider<WorkerMetrics> metrics,
      ObjectProvider<Clock> clock) {
    return new SpringWorker(
        new WorkerRuntime(
            settings,
            new SpringHandlerBeans(beans),
            store.getIfAvailable(() -> IdempotencyStore.NONE),
            metrics.getIfAvailable(() -> WorkerMetrics.NOOP),
            clock.getIfAvailable(Clock::systemUTC)));
  }
}
