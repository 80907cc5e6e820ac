package io.tasklane.spring;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The starter's API does not expose its machinery, and nothing of it needs Micronaut. */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      ArchitectureRules.importMainClasses("io.tasklane.spring");

  @Test
  void apiDoesNotImportInternal() {
    ArchitectureRules.assertApiDoesNotImportInternal("io.tasklane.spring");
  }

  @Test
  void noClassOfTheStarterDependsOnMicronaut() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.micronaut..", "jakarta.inject..")
        .check(CLASSES);
  }

  @Test
  void theImportSawTheStarter() {
    org.assertj.core.api.Assertions.assertThat(
            CLASSES.contain(io.tasklane.spring.internal.SpringWorker.class))
        .isTrue();
  }
}
