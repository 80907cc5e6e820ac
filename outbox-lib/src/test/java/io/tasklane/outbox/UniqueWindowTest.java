package io.tasklane.outbox;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;

/** Unique windows on the real MariaDB through the JDBC outbox ({@link UniqueWindowCases}). */
@TasklaneStack
class UniqueWindowTest extends UniqueWindowCases {
  final TestDb db;

  UniqueWindowTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_unique");
  }

  @Override
  OutboxDb db() {
    return db;
  }
}
