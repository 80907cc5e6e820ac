package io.tasklane.chaos;

import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * ChaosRun is a façade over the machinery (like the relay's Relay): it may use it, not expose it.
 */
class ArchitectureTest {
  @Test
  void apiDoesNotExposeInternal() {
    ArchitectureRules.assertApiDoesNotExposeInternal("io.tasklane.chaos");
  }
}
