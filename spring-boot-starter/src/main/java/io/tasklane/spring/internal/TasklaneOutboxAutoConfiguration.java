package io.tasklane.spring.internal;

import io.tasklane.core.PayloadCodec;
import io.tasklane.outbox.OutboxEntry;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.internal.OutboxSettings;
import io.tasklane.spring.TasklaneOutboxProperties;
import jakarta.persistence.EntityManagerFactory;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.EntityManagerFactoryBuilderCustomizer;
import org.springframework.boot.autoconfigure.orm.jpa.EntityManagerFactoryDependsOnPostProcessor;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The {@link TaskOutbox} bean, writing in the caller's Spring transaction ({@code @Transactional}
 * or a {@code TransactionTemplate}): on the application's JPA {@code EntityManager} when it has one
 * (the outbox entity is added to its persistence unit), else on its {@code DataSource} through a
 * {@link TransactionAwareDataSourceProxy} (the connection {@code JdbcTemplate} uses). A call
 * outside a transaction throws {@code NoActiveTransactionException}. A {@link Clock} or {@link
 * PayloadCodec} bean replaces the system clock or the Jackson default; a {@code TaskOutbox} bean of
 * the application replaces this one. Thread-safe: any thread that holds a transaction.
 *
 * <p>Also: {@code tasklane.outbox.*} read by outbox-lib's neutral reader ({@link OutboxSettings}),
 * and the advisor recording calls of {@code @OutboxAsync} methods in the caller's transaction.
 */
@AutoConfiguration(after = {HibernateJpaAutoConfiguration.class, DataSourceAutoConfiguration.class})
@ConditionalOnClass({TaskOutbox.class, TransactionAwareDataSourceProxy.class})
@EnableConfigurationProperties(TasklaneOutboxProperties.class)
public class TasklaneOutboxAutoConfiguration {

  /**
   * {@code tasklane.outbox.*}: environment variables, system properties, then Spring's sources,
   * read and validated by outbox-lib's neutral reader (unknown keys refused).
   */
  @Bean
  @ConditionalOnMissingBean
  OutboxSettings tasklaneOutboxSettings(ConfigurableEnvironment env) {
    return OutboxSettings.of(
        SpringFileLayer.read(env, OutboxSettings.PREFIX + "."),
        System.getProperties(),
        System.getenv());
  }

  /**
   * {@code @OutboxAsync} methods of the application's beans: an infrastructure advisor, applied by
   * the auto-proxy creator Spring's transaction support registers, outside every other advice.
   */
  @Bean
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  static Advisor tasklaneOutboxAsyncAdvisor(
      ObjectProvider<TaskOutbox> outbox,
      ObjectProvider<OutboxSettings> settings,
      ObjectProvider<PlatformTransactionManager> transactions,
      ObjectProvider<PayloadCodec> codec) {
    DefaultPointcutAdvisor advisor =
        new DefaultPointcutAdvisor(
            new OutboxAsyncAdvice.Pointcut(),
            new OutboxAsyncAdvice(outbox, settings, transactions, codec));
    advisor.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return advisor;
  }

  /** The JPA outbox: the EntityManager of the current transaction, looked up on each call. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({EntityManagerFactory.class, EntityManagerFactoryUtils.class})
  static class Jpa {
    /** Adds the outbox entity to the application's persistence unit, whatever it scans. */
    @Bean
    EntityManagerFactoryBuilderCustomizer tasklaneOutboxEntity() {
      return builder ->
          builder.setPersistenceUnitPostProcessors(
              unit -> unit.addManagedClassName(OutboxEntry.class.getName()));
    }

    @Bean
    @ConditionalOnMissingBean(TaskOutbox.class)
    @ConditionalOnSingleCandidate(EntityManagerFactory.class)
    TaskOutbox taskOutbox(
        EntityManagerFactory entityManagers,
        OutboxSettings settings,
        ObjectProvider<Clock> clock,
        ObjectProvider<PayloadCodec> codec) {
      return TaskOutbox.builder()
          .config(settings.config())
          .codec(codec.getIfAvailable(PayloadCodec::jackson))
          .clock(clock.getIfAvailable(Clock::systemUTC))
          .jpa(() -> EntityManagerFactoryUtils.getTransactionalEntityManager(entityManagers));
    }
  }

  /** The JDBC outbox, when the application has no JPA. */
  @Configuration(proxyBeanMethods = false)
  static class Jdbc {
    @Bean
    @ConditionalOnMissingBean(
        value = TaskOutbox.class,
        type = "jakarta.persistence.EntityManagerFactory")
    @ConditionalOnBean(DataSource.class)
    TaskOutbox taskOutbox(
        DataSource dataSource,
        OutboxSettings settings,
        ObjectProvider<Clock> clock,
        ObjectProvider<PayloadCodec> codec) {
      return TaskOutbox.builder()
          .config(settings.config())
          .codec(codec.getIfAvailable(PayloadCodec::jackson))
          .clock(clock.getIfAvailable(Clock::systemUTC))
          .jdbc(new TransactionAwareDataSourceProxy(dataSource));
    }
  }

  /**
   * Tasklane's Flyway migrations in a history table of their own, with {@code
   * tasklane.outbox.flyway.enabled=true} and Flyway on the classpath; nothing otherwise.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.flywaydb.core.Flyway")
  @ConditionalOnProperty(
      prefix = OutboxSettings.PREFIX + ".flyway",
      name = "enabled",
      havingValue = "true")
  static class Migrations {
    @Bean
    @ConditionalOnBean(DataSource.class)
    TasklaneFlywayMigrations tasklaneFlywayMigrations(DataSource dataSource) {
      return new TasklaneFlywayMigrations(dataSource);
    }

    /** The JPA EntityManagerFactory (e.g. {@code ddl-auto=validate}) waits for the table. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({EntityManagerFactory.class, EntityManagerFactoryUtils.class})
    static class JpaAfterMigrations {
      @Bean
      static EntityManagerFactoryDependsOnPostProcessor tasklaneMigrationsBeforeJpa() {
        return new EntityManagerFactoryDependsOnPostProcessor(TasklaneFlywayMigrations.class);
      }
    }
  }
}
