package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

class ArchitectureRulesTest {

  @Test
  void testkitApiDoesNotExposeInternal() {
    ArchitectureRules.assertApiDoesNotExposeInternal("io.tasklane.testkit");
  }

  @Test
  void aMistypedRootPackageFailsInsteadOfPassingVacuously() {
    assertThatThrownBy(() -> ArchitectureRules.assertApiDoesNotImportInternal("io.tasklane.nope"))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void strictRuleAcceptsAnApiThatLeavesInternalAlone() {
    ArchitectureRules.apiMustNotDependOnInternal("io.tasklane.testkit.fixture.good")
        .check(new ClassFileImporter().importPackages("io.tasklane.testkit.fixture.good"));
  }

  @Test
  void strictRuleRejectsAnApiThatImportsInternal() {
    assertThatThrownBy(
            () ->
                ArchitectureRules.apiMustNotDependOnInternal("io.tasklane.testkit.fixture.bad")
                    .check(
                        new ClassFileImporter().importPackages("io.tasklane.testkit.fixture.bad")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("fixture.bad.internal.Machinery");
  }

  @Test
  void exposureRuleRejectsAnInternalTypeInAPublicSignature() {
    assertThatThrownBy(
            () ->
                ArchitectureRules.apiMustNotExposeInternal("io.tasklane.testkit.fixture.bad")
                    .check(
                        new ClassFileImporter().importPackages("io.tasklane.testkit.fixture.bad")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("machinery(...) returns");
  }
}
