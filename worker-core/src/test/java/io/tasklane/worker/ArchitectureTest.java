package io.tasklane.worker;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.tasklane.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * tasklane-worker-core runs without any framework: no class of it depends on Micronaut, except the
 * meta-annotations of {@link TaskHandler} (which a Micronaut app needs at compile time, and which
 * reflection ignores where Micronaut is absent).
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      ArchitectureRules.importMainClasses("io.tasklane.worker");

  @Test
  void apiDoesNotImportInternal() {
    ArchitectureRules.assertApiDoesNotImportInternal("io.tasklane.worker");
  }

  @Test
  void noClassOfTheWorkerCoreDependsOnMicronaut() {
    noClasses()
        .that(not(name(TaskHandler.class.getName())))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.micronaut..", "jakarta.inject..", "jakarta.annotation..")
        .check(CLASSES);
  }

  @Test
  void taskHandlerMeetsMicronautOnlyThroughItsMetaAnnotations() {
    classes()
        .that(name(TaskHandler.class.getName()))
        .should()
        .onlyDependOnClassesThat(
            not(resideInAPackage("io.micronaut.."))
                .or(JavaClass.Predicates.ANNOTATIONS)
                .or(name("jakarta.inject.Singleton")))
        .check(CLASSES);
  }

  @Test
  void theImportSawTheWorkerCore() {
    org.assertj.core.api.Assertions.assertThat(CLASSES.contain(TaskHandler.class)).isTrue();
    org.assertj.core.api.Assertions.assertThat(
            CLASSES.contain(io.tasklane.worker.internal.WorkerRuntime.class))
        .isTrue();
  }
}
