package io.tasklane.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's packages by concept and who may write a task (docs/scheduler-streams.md, *Where
 * things are*): one owner of the lifecycle, and arrows that only point down — {@code topology} →
 * {@code schedules} → {@code lifecycle}; {@code api} and {@code ops} above them; nothing that runs
 * on a stream thread reaches the HTTP API.
 */
class SchedulerLayoutTest {
  private static final String INTERNAL = "io.tasklane.scheduler.internal";
  private static final String LIFECYCLE = INTERNAL + ".lifecycle";

  /** The methods of {@code TaskStore} that write a record, a timer, an index entry or a count. */
  private static final Set<String> STORE_WRITES =
      Set.of(
          "put",
          "putFired",
          "delete",
          "deleteFired",
          "forgetUnreadable",
          "removeEntry",
          "removeQueueEntry",
          "reassertTimer",
          "repairTimers",
          "purgeFinished");

  /** The lifecycle's family: the classes that decide a transition by editing a record. */
  private static final String FAMILY =
      LIFECYCLE.replace(".", "\\.")
          + "\\.(TaskLifecycle|Transitions|Admissions|Results|Commands|CycleProbes|TimerFiring"
          + "|Dispatcher|TaskRecord|TaskRecordCodec)(\\$.*)?";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tasklane.scheduler");
  }

  @Test
  void onlyTheLifecycleWritesThroughTheTaskStore() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(LIFECYCLE + ".TaskLifecycle")
        .should()
        .callMethodWhere(
            new DescribedPredicate<JavaMethodCall>("a write of TaskStore") {
              @Override
              public boolean test(JavaMethodCall call) {
                return call.getTargetOwner().getFullName().equals(LIFECYCLE + ".TaskStore")
                    && STORE_WRITES.contains(call.getName());
              }
            })
        .because(
            "every transition stores its record, timers, index entries and counts in one place")
        .check(classes);
  }

  @Test
  void onlyTheLifecyclesFamilyEditsATaskRecord() {
    DescribedPredicate<JavaFieldAccess> editField =
        new DescribedPredicate<>("a field of TaskRecord.Edit") {
          @Override
          public boolean test(JavaFieldAccess access) {
            return access.getTargetOwner().getFullName().equals(LIFECYCLE + ".TaskRecord$Edit");
          }
        };
    DescribedPredicate<JavaMethodCall> editCall =
        new DescribedPredicate<>("an edit method of TaskRecord.Edit") {
          @Override
          public boolean test(JavaMethodCall call) {
            return call.getTargetOwner().getFullName().equals(LIFECYCLE + ".TaskRecord$Edit")
                && !call.getName().equals("build");
          }
        };
    noClasses().that().haveNameNotMatching(FAMILY).should().setFieldWhere(editField).check(classes);
    noClasses()
        .that()
        .haveNameNotMatching(FAMILY)
        .should()
        .callMethodWhere(editCall)
        .check(classes);
  }

  @Test
  void theLifecycleDependsOnNoOtherPartOfTheScheduler() {
    noClasses()
        .that()
        .resideInAPackage(LIFECYCLE + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            INTERNAL,
            INTERNAL + ".schedules..",
            INTERNAL + ".topology..",
            INTERNAL + ".api..",
            INTERNAL + ".ops..",
            "io.tasklane.scheduler")
        .check(classes);
  }

  @Test
  void schedulesStandOnTheLifecycleOnly() {
    noClasses()
        .that()
        .resideInAPackage(INTERNAL + ".schedules..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            INTERNAL, INTERNAL + ".topology..", INTERNAL + ".api..", INTERNAL + ".ops..")
        .check(classes);
  }

  @Test
  void batchesStandOnTheLifecycleOnly() {
    noClasses()
        .that()
        .resideInAPackage(INTERNAL + ".batches..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            INTERNAL,
            INTERNAL + ".schedules..",
            INTERNAL + ".topology..",
            INTERNAL + ".api..",
            INTERNAL + ".ops..")
        .check(classes);
  }

  @Test
  void streamThreadCodeNeverReachesTheApi() {
    noClasses()
        .that()
        .resideInAnyPackage(
            LIFECYCLE + "..",
            INTERNAL + ".schedules..",
            INTERNAL + ".batches..",
            INTERNAL + ".topology..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(INTERNAL + ".api..", INTERNAL)
        .check(classes);
  }

  @Test
  void operationsDoNotReachTheApi() {
    noClasses()
        .that()
        .resideInAPackage(INTERNAL + ".ops..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(INTERNAL + ".api..", INTERNAL + ".topology..")
        .check(classes);
  }

  /**
   * {@code SchedulerRuntime} wires the scheduler and hands out nothing: outside the wiring package
   * no class depends on it; a controller, query or health indicator receives the services it uses
   * ({@code SchedulerServices}).
   */
  @Test
  void onlyTheWiringKnowsTheRuntime() {
    noClasses()
        .that()
        .resideOutsideOfPackage(INTERNAL)
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(INTERNAL + ".SchedulerRuntime")
        .because("each class receives the services it uses, never the runtime that owns them")
        .check(classes);
  }

  /** Classes small enough to read in one sitting: no source file of the module over 300 lines. */
  @Test
  void noMainClassIsOver300Lines() throws java.io.IOException {
    java.nio.file.Path main = java.nio.file.Path.of("src", "main", "java");
    java.util.List<String> over = new java.util.ArrayList<>();
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(main)) {
      for (java.nio.file.Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        long lines = java.nio.file.Files.readAllLines(f).size();
        if (lines > 300) {
          over.add(main.relativize(f) + " (" + lines + " lines)");
        }
      }
    }
    org.assertj.core.api.Assertions.assertThat(over).as("files over 300 lines").isEmpty();
  }

  /**
   * The API and the gauges read tasks and schedules through the query interfaces ({@code
   * TaskReads}, {@code ScheduleReads}), never the store layout: no index key, count key, record
   * encoding or store of tasks, and no task store named in their sources (store names are
   * constants, inlined where used, so the sources are read).
   */
  @Test
  void theApiReadsTasksThroughTheQueryInterfaceOnly() throws java.io.IOException {
    noClasses()
        .that()
        .resideInAnyPackage(INTERNAL + ".api..", INTERNAL + ".ops..")
        .should()
        .dependOnClassesThat()
        .haveNameMatching(
            LIFECYCLE.replace(".", "\\.")
                + "\\.(TaskIndexKey|DueIndexKey|StateCounts|TaskIndex|DueIndex|TaskStore"
                + "|TaskRecordSerde|TaskRecordCodec|CompactBytes|TaskMemory)(\\$.*)?")
        .orShould()
        .dependOnClassesThat()
        .haveNameMatching(
            INTERNAL.replace(".", "\\.")
                + "\\.schedules\\.(FireLog|FireLogCodec|ScheduleStore)(\\$.*)?")
        .check(classes);
    java.util.List<String> named = new java.util.ArrayList<>();
    for (String pkg : java.util.List.of("api", "ops")) {
      java.nio.file.Path dir =
          java.nio.file.Path.of(
              "src", "main", "java", "io", "tasklane", "scheduler", "internal", pkg);
      try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
        for (java.nio.file.Path f : files.toList()) {
          String text = java.nio.file.Files.readString(f);
          for (String store :
              java.util.List.of(
                  "TASKS",
                  "TASK_INDEX",
                  "STATE_COUNTS",
                  "DUE_INDEX",
                  "TASK_LOGS",
                  "SCHEDULES",
                  "SCHEDULE_FIRES")) {
            if (text.contains("Stores." + store)) {
              named.add(f.getFileName() + " names Stores." + store);
            }
          }
        }
      }
    }
    org.assertj.core.api.Assertions.assertThat(named).isEmpty();
  }
}
