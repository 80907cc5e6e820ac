package io.tasklane.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;

/**
 * Architecture rules shared by every module: the API packages of a root package (the root and its
 * subpackages outside {@code ..internal..}) and the machinery under {@code root..internal..}.
 * Stateless; any thread.
 */
public final class ArchitectureRules {

  private ArchitectureRules() {}

  /**
   * Classes in the API packages of {@code rootPackage} must not depend on (import, call, extend,
   * mention) classes in {@code rootPackage..internal..}. For modules whose API is interfaces and
   * records with the wiring done elsewhere (e.g. by DI).
   */
  public static ArchRule apiMustNotDependOnInternal(String rootPackage) {
    return noClasses()
        .that(areInApiPackagesOf(rootPackage))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(rootPackage + "..internal..")
        .as(
            "API classes of "
                + rootPackage
                + " must not depend on "
                + rootPackage
                + "..internal..");
  }

  /**
   * Weaker rule for modules whose API facade creates internal objects (like testkit's {@code
   * LocalStack}): public API types must not expose internal types in public or protected signatures
   * (fields, method parameters and return types, supertypes).
   */
  public static ArchRule apiMustNotExposeInternal(String rootPackage) {
    String internal = rootPackage + "..internal..";
    return ArchRuleDefinition.classes()
        .that(areInApiPackagesOf(rootPackage))
        .and()
        .arePublic()
        .should(InternalExposure.notExpose(internal))
        .as("public API of " + rootPackage + " must not expose types of " + internal);
  }

  /** Checks {@link #apiMustNotDependOnInternal} on the main classes of {@code rootPackage}. */
  public static void assertApiDoesNotImportInternal(String rootPackage) {
    apiMustNotDependOnInternal(rootPackage).check(importMainClasses(rootPackage));
  }

  /** Checks {@link #apiMustNotExposeInternal} on the main classes of {@code rootPackage}. */
  public static void assertApiDoesNotExposeInternal(String rootPackage) {
    apiMustNotExposeInternal(rootPackage).check(importMainClasses(rootPackage));
  }

  /** Imports the non-test classes of {@code rootPackage} from the classpath. */
  public static JavaClasses importMainClasses(String rootPackage) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(rootPackage);
  }

  static DescribedPredicate<JavaClass> areInApiPackagesOf(String rootPackage) {
    return DescribedPredicate.describe(
        "are in the API packages of " + rootPackage,
        c -> isApiPackage(c.getPackageName(), rootPackage));
  }

  /** True for {@code root} and its subpackages that have no {@code internal} segment. */
  static boolean isApiPackage(String packageName, String rootPackage) {
    if (!packageName.equals(rootPackage) && !packageName.startsWith(rootPackage + ".")) {
      return false;
    }
    String rest = packageName.substring(rootPackage.length());
    return !(rest + ".").contains(".internal.");
  }
}
