package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.testkit.internal.Dirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The on-demand PostgreSQL: starts, answers queries, runs with logical WAL, stops for good. */
@TasklaneStack
class LocalPostgresTest {
  final LocalStack stack;

  LocalPostgresTest(LocalStack stack) {
    this.stack = stack;
  }

  @Test
  void postgresStartsOnDemandWithLogicalWalAndIsReturnedAgain() throws Exception {
    LocalPostgres pg = stack.postgres();
    assertThat(stack.postgres()).isSameAs(pg);
    assertThat(pg.dir()).startsWith(stack.baseDir());
    assertThat(pg.port()).isNotEqualTo(5432).isNotEqualTo(stack.mariaDbPort());
    try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.username(), pg.password());
        Statement st = c.createStatement()) {
      assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
      assertThat(single(st, "SHOW wal_level")).isEqualTo("logical");
      assertThat(single(st, "SHOW max_replication_slots")).isEqualTo("4");
      // asynchronous commits reach logical decoding only when the WAL writer flushes them
      assertThat(single(st, "SHOW synchronous_commit")).isEqualTo("off");
      assertThat(single(st, "SHOW wal_writer_delay")).isEqualTo("1ms");
      assertThat(single(st, "SHOW listen_addresses")).isEqualTo("127.0.0.1");
      assertThat(single(st, "SELECT current_user")).isEqualTo("tasklane");
    }
  }

  @Test
  void createDatabaseGivesAFreshDatabase() throws Exception {
    LocalPostgres pg = stack.postgres();
    String name = "pg_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String url = pg.createDatabase(name);
    try (Connection c = DriverManager.getConnection(url, pg.username(), pg.password());
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (id INT PRIMARY KEY)");
      st.execute("INSERT INTO t VALUES (1)");
    }
    pg.createDatabase(name);
    try (Connection c = DriverManager.getConnection(url, pg.username(), pg.password());
        Statement st = c.createStatement()) {
      assertThat(single(st, "SELECT count(*) FROM pg_tables WHERE tablename = 't'")).isEqualTo("0");
    }
  }

  @Test
  void closeStopsTheServerAndDeletesItsDir() throws Exception {
    Path dir = Path.of("target", "pg-own-" + UUID.randomUUID()).toAbsolutePath();
    LocalPostgres pg = LocalPostgres.start(dir, Duration.ofSeconds(60));
    long pid;
    try (pg) {
      pid = pg.pid();
      assertThat(ProcessHandle.of(pid).flatMap(p -> p.info().command()))
          .hasValueSatisfying(command -> assertThat(command).endsWith("/postgres"));
      assertThat(ProcessHandle.of(pid)).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
      try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.username(), pg.password());
          Statement st = c.createStatement()) {
        assertThat(single(st, "SELECT 1 + 1")).isEqualTo("2");
      }
    }
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(Files.exists(dir)).isFalse();
  }

  @Test
  void startsAndStopsWhenTheStackDirLiesUnderADirOthersCannotEnter() throws Exception {
    Path privateParent = Files.createTempDirectory("tl-private-"); // mode 0700, like mktemp -d
    assertThat(Files.getPosixFilePermissions(privateParent))
        .doesNotContain(PosixFilePermission.OTHERS_EXECUTE);
    Path dir = privateParent.resolve("checkout/.stack/postgres-" + ProcessHandle.current().pid());
    try {
      long pid;
      Path data;
      try (LocalPostgres pg = LocalPostgres.start(dir, Duration.ofSeconds(60))) {
        pid = pg.pid();
        data = pg.dataDir();
        assertThat(data).isDirectory();
        assertThat(data.startsWith(privateParent)).as("%s under %s", data, privateParent).isFalse();
        assertThat(Files.getPosixFilePermissions(data.getParent()))
            .containsExactlyInAnyOrder(
                PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE);
        try (Connection c =
                DriverManager.getConnection(pg.jdbcUrl(), pg.username(), pg.password());
            Statement st = c.createStatement()) {
          assertThat(single(st, "SELECT 1 + 1")).isEqualTo("2");
        }
      }
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(data.getParent()).doesNotExist();
      assertThat(dir).doesNotExist();
    } finally {
      Dirs.deleteRecursively(privateParent);
    }
  }

  @Test
  void serverLeftByADeadJvmIsStoppedAndRemovedByTheNextStart() throws Exception {
    Path stackDir = Path.of("target", "pg-reap-" + UUID.randomUUID()).toAbsolutePath();
    Process finished = new ProcessBuilder("true").start();
    finished.waitFor();
    Path orphanDir = stackDir.resolve("postgres-" + finished.pid()); // its owner JVM is gone
    LocalPostgres orphan = LocalPostgres.start(orphanDir, Duration.ofSeconds(60));
    long orphanPid = orphan.pid();
    Path orphanData = orphan.dataDir();
    try (LocalPostgres next =
        LocalPostgres.start(
            stackDir.resolve("postgres-" + ProcessHandle.current().pid()),
            Duration.ofSeconds(60))) {
      assertThat(ProcessHandle.of(orphanPid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(Files.exists(orphanDir)).isFalse();
      assertThat(orphanData.getParent()).doesNotExist();
      assertThat(next.pid()).isNotEqualTo(orphanPid);
    } finally {
      orphan.close(); // no-op for the server already stopped; keeps the test from leaking
      Dirs.deleteRecursively(stackDir);
    }
  }

  @Test
  void stackDownStopsThePostgresServersUnderTheStackDir() throws Exception {
    Path stackDir = Path.of("target", "pg-down-" + UUID.randomUUID()).toAbsolutePath();
    Path pgDir = stackDir.resolve("postgres-" + ProcessHandle.current().pid());
    LocalPostgres pg = LocalPostgres.start(pgDir, Duration.ofSeconds(60));
    long pid = pg.pid();
    Path data = pg.dataDir();
    try {
      int code =
          StackMain.run(
              new String[] {"down", "--dir", stackDir.toString()},
              new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
      assertThat(code).isZero();
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(Files.exists(pgDir)).isFalse();
      assertThat(data.getParent()).doesNotExist();
    } finally {
      pg.close();
      Dirs.deleteRecursively(stackDir);
    }
  }

  private static String single(Statement st, String sql) throws Exception {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
