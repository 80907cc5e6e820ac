package io.tasklane.worker;

import java.sql.Connection;

/**
 * Database work of a handler, run by {@link TaskContext#inTransaction} on a connection whose
 * transaction also holds the task's processed mark. Do not commit, roll back or close the
 * connection: the worker does.
 *
 * @param <R> the result
 */
@FunctionalInterface
public interface JdbcWork<R> {
  R run(Connection connection) throws Exception;
}
