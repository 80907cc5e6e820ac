package io.tasklane.spring.internal;

import io.tasklane.worker.JdbcWork;
import io.tasklane.worker.spi.WorkerTransactions;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A handler's database work in a new transaction of the application's {@link
 * PlatformTransactionManager} (JPA or JDBC), on the connection that transaction holds for the
 * application's {@link DataSource}: the idempotency mark, the handler's {@code JdbcTemplate} writes
 * and the {@code @Transactional} services it calls (which join) commit or roll back together. Runs
 * on the handler's pool thread; thread-safe.
 */
final class SpringWorkerTransactions implements WorkerTransactions {
  private final TransactionTemplate template;
  private final DataSource dataSource;

  SpringWorkerTransactions(PlatformTransactionManager transactions, DataSource dataSource) {
    this.template = new TransactionTemplate(transactions);
    this.template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    this.dataSource = dataSource;
  }

  @Override
  public <R> R inTransaction(JdbcWork<R> work) throws Exception {
    try {
      return template.execute(
          status -> {
            Connection c = DataSourceUtils.getConnection(dataSource);
            try {
              return work.run(c);
            } catch (RuntimeException | Error e) {
              throw e;
            } catch (Exception e) {
              throw new Checked(e); // rolls back, unwrapped below
            } finally {
              DataSourceUtils.releaseConnection(c, dataSource);
            }
          });
    } catch (Checked e) {
      throw e.checked;
    }
  }

  /** Carries a checked exception through the template, which rolls back on runtime exceptions. */
  private static final class Checked extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final Exception checked;

    Checked(Exception checked) {
      super(checked.getMessage(), checked, false, false);
      this.checked = checked;
    }
  }
}
