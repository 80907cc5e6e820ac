package io.tasklane.bench;

import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {
  @Test
  void apiDoesNotExposeInternal() {
    ArchitectureRules.assertApiDoesNotExposeInternal("io.tasklane.bench");
  }
}
