package io.tasklane.relay;

import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {
  /**
   * The relay's API facade ({@link Relay}) creates the internal runtime, like testkit's LocalStack,
   * so the rule is "no internal type in a public API signature".
   */
  @Test
  void apiDoesNotExposeInternal() {
    ArchitectureRules.assertApiDoesNotExposeInternal("io.tasklane.relay");
  }
}
