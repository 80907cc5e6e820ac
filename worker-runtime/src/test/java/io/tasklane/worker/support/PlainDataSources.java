package io.tasklane.worker.support;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.data.connection.jdbc.advice.ContextualAwareDataSource;
import jakarta.inject.Singleton;
import javax.sql.DataSource;

/**
 * Keeps the tests' DataSource beans as they are: micronaut-data-tx-jdbc (on the test classpath for
 * {@code @Transactional} after-commit methods) would otherwise wrap them in a contextual proxy
 * whose connections outside a transaction behave differently from a plain pool's, which the
 * handlers of other tests use. Transactions still work: the transaction manager opens its own
 * connections.
 */
@Singleton
@Replaces(ContextualAwareDataSource.class)
public class PlainDataSources implements BeanCreatedEventListener<DataSource> {
  @Override
  public DataSource onCreated(BeanCreatedEvent<DataSource> event) {
    return event.getBean();
  }
}
