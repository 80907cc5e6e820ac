package io.tasklane.spring.internal;

import io.tasklane.core.PayloadCodec;
import io.tasklane.outbox.OutboxEntry;
import io.tasklane.outbox.TaskOutbox;
import jakarta.persistence.EntityManagerFactory;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.EntityManagerFactoryBuilderCustomizer;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;

/**
 * The {@link TaskOutbox} bean, writing in the caller's Spring transaction ({@code @Transactional}
 * or a {@code TransactionTemplate}): on the application's JPA {@code EntityManager} when it has one
 * (the outbox entity is added to its persistence unit), else on its {@code DataSource} through a
 * {@link TransactionAwareDataSourceProxy} (the connection {@code JdbcTemplate} uses). A call
 * outside a transaction throws {@code NoActiveTransactionException}. A {@link Clock} or {@link
 * PayloadCodec} bean replaces the system clock or the Jackson default; a {@code TaskOutbox} bean of
 * the application replaces this one. Thread-safe: any thread that holds a transaction.
 */
@AutoConfiguration(after = {HibernateJpaAutoConfiguration.class, DataSourceAutoConfiguration.class})
@ConditionalOnClass({TaskOutbox.class, TransactionAwareDataSourceProxy.class})
public class TasklaneOutboxAutoConfiguration {

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
        ObjectProvider<Clock> clock,
        ObjectProvider<PayloadCodec> codec) {
      return TaskOutbox.builder()
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
        DataSource dataSource, ObjectProvider<Clock> clock, ObjectProvider<PayloadCodec> codec) {
      return TaskOutbox.builder()
          .codec(codec.getIfAvailable(PayloadCodec::jackson))
          .clock(clock.getIfAvailable(Clock::systemUTC))
          .jdbc(new TransactionAwareDataSourceProxy(dataSource));
    }
  }
}
