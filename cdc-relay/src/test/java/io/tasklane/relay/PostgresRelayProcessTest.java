package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two relay processes on the private PostgreSQL: the leader holds the advisory lock and the slot;
 * killed with SIGKILL while rows stream in, the standby takes the lock, resumes the slot from the
 * stored LSN and every committed row reaches {@code <ns>.tasks}.
 */
@TasklaneStack
class PostgresRelayProcessTest {
  private static final Path DIR = Path.of("target", "processes");

  @Test
  void standbyTakesTheAdvisoryLockAndRelaysEveryRowWhenTheLeaderIsKilledMidStream(LocalStack stack)
      throws Exception {
    var fx = new PgRelayFixture(stack, "relay_pg_ha");
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<Throwable> insertError = new AtomicReference<>();
    AtomicBoolean stopInserting = new AtomicBoolean();
    Path portA = DIR.resolve(fx.database + "-a.port");
    Path portB = DIR.resolve(fx.database + "-b.port");
    // Single-row commits until the standby streams, so rows keep arriving before, during and
    // after the kill. Permits cap them (15,000 before the kill, 1,000 more after it) to keep the
    // drain short; the inserter waits for a permit, so a relay slower than the inserts still sees
    // rows committed after the kill.
    Semaphore permits = new Semaphore(15_000);
    Thread inserter =
        new Thread(
            () -> {
              try (Connection c = fx.connect()) {
                while (!stopInserting.get()) {
                  if (permits.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    ids.addAll(PostgresRelayTest.insertTasks(c, 1, "pg.ha"));
                  }
                }
              } catch (Throwable t) {
                insertError.set(t);
              }
            },
            "pg-ha-inserter");
    try (TopicReader tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
        JavaProcess a = RelayProcesses.start(fx, "pg-ha-a", portA);
        JavaProcess b = RelayProcesses.start(fx, "pg-ha-b", portB)) {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> {
                String sa = RelayProcesses.state(a, portA);
                String sb = RelayProcesses.state(b, portB);
                return (sa.equals("streaming") && sb.equals("standby"))
                    || (sb.equals("streaming") && sa.equals("standby"));
              });
      boolean aLeads = RelayProcesses.state(portA).equals("streaming");
      JavaProcess leader = aLeads ? a : b;
      JavaProcess standby = aLeads ? b : a;
      Path standbyPort = aLeads ? portB : portA;
      inserter.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> tasks.firstByKey.size() >= 200);
      leader.kill9();
      long t0 = System.nanoTime();
      int insertedAtKill = ids.size();
      permits.release(1_000);
      long relayedAtKill = tasks.firstByKey.size();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> RelayProcesses.state(standby, standbyPort).equals("streaming"));
      long takeoverMs = (System.nanoTime() - t0) / 1_000_000;
      stopInserting.set(true);
      inserter.join(60_000);
      assertThat(inserter.isAlive()).as("inserter finished").isFalse();
      assertThat(insertError.get()).isNull();
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(() -> assertThat(tasks.firstByKey.keySet()).containsAll(ids));
      long allMs = (System.nanoTime() - t0) / 1_000_000;
      long records = tasks.records.stream().filter(r -> ids.contains(r.key())).count();
      System.out.printf(
          "MEASURE postgres failover: leader killed with %d rows inserted, %d relayed (single-row"
              + " commits going on); the standby was streaming %d ms after the kill -9 and had"
              + " relayed all %d rows after %d ms; %d duplicate records%n",
          insertedAtKill, relayedAtKill, takeoverMs, ids.size(), allMs, records - ids.size());
      assertThat(ids.size()).as("rows committed after the kill").isGreaterThan(insertedAtKill);
      assertThat(RelayProcesses.get(standbyPort, "/health")).contains("\"slotRecoveries\":0");
    } finally {
      stopInserting.set(true);
      inserter.join(30_000);
      fx.dropSlot();
    }
  }
}
