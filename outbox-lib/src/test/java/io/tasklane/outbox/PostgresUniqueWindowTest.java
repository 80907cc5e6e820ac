package io.tasklane.outbox;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;

/** Unique windows on the real PostgreSQL through the JDBC outbox ({@link UniqueWindowCases}). */
@TasklaneStack
class PostgresUniqueWindowTest extends UniqueWindowCases {
  final PgDb db;

  PostgresUniqueWindowTest(LocalStack stack) {
    db = PgDb.create(stack, "outbox_pg_unique");
  }

  @Override
  OutboxDb db() {
    return db;
  }
}
