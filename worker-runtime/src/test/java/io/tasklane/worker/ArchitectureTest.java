package io.tasklane.worker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * This module is the Micronaut adapter only: every class it holds is in {@code
 * io.tasklane.worker.micronaut..}; the API package and the framework-neutral machinery are in
 * {@code tasklane-worker-core}, whose own architecture test checks that the API does not import the
 * internals.
 */
class ArchitectureTest {
  @Test
  void everyClassOfThisModuleIsInTheMicronautAdapter() {
    JavaClasses own = new ClassFileImporter().importPath(Path.of("target", "classes"));
    assertThat(own.size()).as("classes in target/classes").isGreaterThan(5);
    classes().should().resideInAPackage("io.tasklane.worker.micronaut..").check(own);
  }
}
