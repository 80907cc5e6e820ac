package io.tasklane.testkit;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The contract against MySQL 8.4 + apache/kafka in Docker. Runs only with {@code
 * -Dtasklane.stack.impl=containers} and a Docker engine; skips otherwise.
 */
@EnabledIfSystemProperty(named = Stacks.IMPL_PROPERTY, matches = "containers")
@Testcontainers(disabledWithoutDocker = true)
@TasklaneStack
class ContainersStackTest extends StackContractTest {

  private final ContainersStack stack;

  ContainersStackTest(ContainersStack stack) {
    this.stack = stack;
  }

  @Override
  StackHandle stack() {
    return stack;
  }
}
