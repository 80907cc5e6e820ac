package io.tasklane.scheduler;

import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The API may be a façade over the machinery ({@code TaskStoreRecords} reads the store's records
 * through it), never show it: no internal type in a public or protected signature.
 */
class ArchitectureTest {
  @Test
  void apiDoesNotExposeInternal() {
    ArchitectureRules.assertApiDoesNotExposeInternal("io.tasklane.scheduler");
  }
}
