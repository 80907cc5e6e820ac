package io.tasklane.scheduler;

import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {
  @Test
  void apiDoesNotImportInternal() {
    ArchitectureRules.assertApiDoesNotImportInternal("io.tasklane.scheduler");
  }
}
