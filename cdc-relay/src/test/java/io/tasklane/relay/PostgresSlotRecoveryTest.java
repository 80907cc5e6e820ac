package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The relay group's replication slot is gone when the relay comes back (dropped, or invalidated by
 * the server through {@code max_slot_wal_keep_size}): the relay recreates it, re-reads the outbox
 * table, and every row committed while it was away reaches {@code <ns>.tasks}.
 */
@TasklaneStack
class PostgresSlotRecoveryTest {
  private static final Path DIR = Path.of("target", "processes");

  @Test
  void rereadsTheOutboxTableWhenTheSlotWasDroppedWhileTheRelayWasStopped(LocalStack stack)
      throws Exception {
    var fx = new PgRelayFixture(stack, "relay_slot_drop");
    try {
      recoversAfter(fx, "was dropped", () -> fx.dropSlot());
    } finally {
      fx.dropSlot();
    }
  }

  @Test
  void rereadsTheOutboxTableWhenTheServerInvalidatedTheSlot(LocalStack stack) throws Exception {
    var fx = new PgRelayFixture(stack, "relay_slot_lost");
    try {
      recoversAfter(
          fx,
          "was lost (invalidated by the server",
          () -> {
            // A keep size far below one WAL segment: the next checkpoint after a segment switch
            // removes the WAL the inactive slot still needs and marks it lost.
            fx.execute(
                "ALTER SYSTEM SET max_slot_wal_keep_size = '1MB'", "SELECT pg_reload_conf()");
            try {
              await()
                  .atMost(Duration.ofSeconds(30))
                  .pollInterval(Duration.ofMillis(200))
                  .until(
                      () -> {
                        try (Connection c = fx.connect()) {
                          PostgresRelayTest.insertTasks(c, 1, "wal.filler");
                        }
                        fx.execute("SELECT pg_switch_wal()", "CHECKPOINT");
                        return "lost".equals(fx.walStatus());
                      });
            } finally {
              fx.execute("ALTER SYSTEM RESET max_slot_wal_keep_size", "SELECT pg_reload_conf()");
            }
          });
    } finally {
      fx.dropSlot();
    }
  }

  interface SlotDamage {
    void apply() throws Exception;
  }

  private static void recoversAfter(PgRelayFixture fx, String what, SlotDamage damage)
      throws Exception {
    try (TopicReader tasks = new TopicReader(fx.stack.bootstrapServers(), fx.topics.tasks())) {
      List<String> before;
      Path portA = DIR.resolve(fx.database + "-a.port");
      try (JavaProcess a = RelayProcesses.start(fx, "slot-a", portA)) {
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> RelayProcesses.state(a, portA).equals("streaming"));
        try (Connection c = fx.connect()) {
          before = PostgresRelayTest.insertTasks(c, 10, "before.stop");
        }
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(before));
        a.stop(Duration.ofSeconds(30));
      }
      List<String> whileAway = new ArrayList<>();
      try (Connection c = fx.connect()) {
        whileAway.addAll(PostgresRelayTest.insertTasks(c, 20, "while.away"));
      }
      damage.apply();
      try (Connection c = fx.connect()) {
        whileAway.addAll(PostgresRelayTest.insertTasks(c, 5, "after.damage"));
      }
      long rows = fx.count();
      Path portB = DIR.resolve(fx.database + "-b.port");
      try (JavaProcess b = RelayProcesses.start(fx, "slot-b", portB)) {
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  RelayProcesses.state(b, portB);
                  assertThat(tasks.firstByKey.keySet()).containsAll(whileAway);
                });
        // The re-read sends the rows relayed before the stop again (same task ids).
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> tasks.records.stream().filter(r -> before.contains(r.key())).count() >= 20);
        assertThat(Files.readString(b.logFile()))
            .contains("replication slot " + fx.slotName() + " " + what)
            .contains(
                "; recreating it and re-reading "
                    + rows
                    + " rows still in the outbox table public.tasklane_outbox");
        assertThat(RelayProcesses.get(portB, "/metrics"))
            .contains("tasklane_relay_slot_recoveries_total 1.0");
        assertThat(RelayProcesses.get(portB, "/health")).contains("\"slotRecoveries\":1");
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> RelayProcesses.state(b, portB).equals("streaming"));
        List<String> after;
        try (Connection c = fx.connect()) {
          after = PostgresRelayTest.insertTasks(c, 5, "after.recovery");
        }
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(after));
        assertThat(fx.walStatus()).isIn("reserved", "extended");
      }
    }
  }
}
