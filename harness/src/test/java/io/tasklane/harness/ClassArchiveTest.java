package io.tasklane.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveTest {

  @Test
  void aModuleWithoutAJarRunsOnItsClassesWithoutAnArchive(@TempDir Path home) throws Exception {
    Files.createDirectories(home.resolve("mod/target/classes"));

    ClassArchive.Launch l = ClassArchive.of(home, "mod", "a.NoJar", "/x/dep.jar");

    assertThat(l.classpath()).isEqualTo(home.resolve("mod/target/classes") + ":/x/dep.jar");
    assertThat(l.jvmArgs()).isEmpty();
  }

  @Test
  void aJarOlderThanAClassIsNotUsed(@TempDir Path home) throws Exception {
    Path jar = jar(home, Instant.parse("2026-01-01T00:00:00Z"));
    Path cls = Files.createDirectories(home.resolve("mod/target/classes/a")).resolve("A.class");
    Files.writeString(cls, "x");
    Files.setLastModifiedTime(cls, FileTime.from(Instant.parse("2026-01-02T00:00:00Z")));

    ClassArchive.Launch l = ClassArchive.of(home, "mod", "a.Stale", "");

    assertThat(l.classpath()).isEqualTo(home.resolve("mod/target/classes").toString());
    assertThat(l.classpath()).doesNotContain(jar.toString());
  }

  @Test
  void aCurrentJarRecordsAnArchiveOnceThenUsesItUntilAJarIsNewer(@TempDir Path home)
      throws Exception {
    Path jar = jar(home, Instant.parse("2026-01-01T00:00:00Z"));
    Files.createDirectories(home.resolve("mod/target/classes"));

    ClassArchive.Launch first = ClassArchive.of(home, "mod", "a.Current", "");
    ClassArchive.Launch second = ClassArchive.of(home, "mod", "a.Current", "");

    assertThat(first.classpath()).isEqualTo(jar.toString());
    assertThat(first.jvmArgs()).first().asString().startsWith("-XX:ArchiveClassesAtExit=");
    assertThat(second.jvmArgs()).as("one writer per archive").isEmpty();

    Path archive = Path.of(first.jvmArgs().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
    assertThat(archive.getParent()).isEqualTo(home.resolve("target/cds"));
    Files.writeString(archive, "archive");
    assertThat(ClassArchive.of(home, "mod", "a.Current", "").jvmArgs())
        .containsExactly("-XX:SharedArchiveFile=" + archive, "-Xshare:auto");

    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
    assertThat(ClassArchive.of(home, "mod", "a.Current", "").jvmArgs())
        .as("a stale archive is neither used nor recorded twice in one JVM")
        .isEmpty();
  }

  private static Path jar(Path home, Instant at) throws Exception {
    Path jar = Files.createDirectories(home.resolve("mod/target")).resolve("tasklane-mod-1.jar");
    Files.writeString(jar, "jar");
    Files.setLastModifiedTime(jar, FileTime.from(at));
    Files.writeString(home.resolve("mod/target/tasklane-mod-1-sources.jar"), "src");
    return jar;
  }
}
