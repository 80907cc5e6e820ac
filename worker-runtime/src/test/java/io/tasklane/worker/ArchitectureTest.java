package io.tasklane.worker;

import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {
  @Test
  void apiDoesNotImportInternal() {
    ArchitectureRules.assertApiDoesNotImportInternal("io.tasklane.worker");
  }
}
