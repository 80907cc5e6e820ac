package io.tasklane.testkit;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.HashSet;
import java.util.Set;

/** The ArchUnit condition behind {@link ArchitectureRules#apiMustNotExposeInternal}. */
final class InternalExposure {

  private InternalExposure() {}

  static ArchCondition<JavaClass> notExpose(String internalPackages) {
    PackageMatcher internal = PackageMatcher.of(internalPackages);
    return new ArchCondition<>("not expose types of " + internalPackages) {
      @Override
      public void check(JavaClass api, ConditionEvents events) {
        Set<String> exposures = new HashSet<>();
        api.getRawSuperclass().ifPresent(s -> note(exposures, internal, "extends", s));
        api.getInterfaces()
            .forEach(
                i ->
                    i.getAllInvolvedRawTypes()
                        .forEach(t -> note(exposures, internal, "implements", t)));
        for (JavaField field : api.getFields()) {
          if (visible(field)) {
            field
                .getType()
                .getAllInvolvedRawTypes()
                .forEach(t -> note(exposures, internal, "field " + field.getName(), t));
          }
        }
        for (JavaCodeUnit unit : api.getCodeUnits()) {
          if (visible(unit)) {
            String where = unit.getName() + "(...)";
            unit.getReturnType()
                .getAllInvolvedRawTypes()
                .forEach(t -> note(exposures, internal, where + " returns", t));
            unit.getParameterTypes()
                .forEach(
                    p ->
                        p.getAllInvolvedRawTypes()
                            .forEach(t -> note(exposures, internal, where + " takes", t)));
          }
        }
        for (String exposure : exposures) {
          events.add(SimpleConditionEvent.violated(api, api.getName() + ": " + exposure));
        }
      }
    };
  }

  private static boolean visible(JavaMember member) {
    Set<JavaModifier> modifiers = member.getModifiers();
    return (modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED))
        && !modifiers.contains(JavaModifier.SYNTHETIC);
  }

  private static void note(Set<String> out, PackageMatcher internal, String where, JavaClass type) {
    JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
    if (internal.matches(base.getPackageName())) {
      out.add(where + " " + base.getName());
    }
  }
}
