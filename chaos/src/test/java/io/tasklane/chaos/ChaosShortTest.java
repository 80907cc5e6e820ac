package io.tasklane.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.harness.DatabaseKind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The short chaos run of {@code bin/test}: 3 kill -9 cycles and one broker restart under ~150
 * tasks/s and a 1-second schedule on a private stack; nothing may be lost, no effect may be written
 * twice, and every schedule fire made runs once, never before its instant. Timing is reported,
 * never asserted.
 */
class ChaosShortTest {

  @Test
  void threeKillCyclesAndABrokerRestartLoseNothing() throws Exception {
    Path home = Path.of("").toAbsolutePath().getParent();
    ChaosOptions options =
        ChaosOptions.builder(home)
            .cycles(3)
            .rate(150)
            .gaps(Duration.ofSeconds(5), Duration.ofSeconds(6))
            .faults(true, false, false)
            .drainTimeout(Duration.ofMinutes(3))
            .build();

    ChaosResult result = new ChaosRun(options, System.out).run();

    System.out.println(result.toJson());
    assertThat(result.cycles()).isEqualTo(3);
    assertThat(result.faults()).hasSize(4).anyMatch(f -> f.startsWith("Kafka broker restart"));
    assertThat(
            result.faults().stream()
                .filter(f -> f.contains("kill -9"))
                .map(f -> f.replaceAll(".*kill -9 (\\S+):.*", "$1"))
                .distinct())
        .as("three different apps killed")
        .hasSize(3);
    assertThat(result.tasks()).isGreaterThan(1000);
    assertThat(result.lost()).as("lost tasks; notes: %s", result.notes()).isZero();
    assertThat(result.duplicateEffects()).isZero();
    assertThat(result.orderedTasks()).as("tasks in ordered lanes").isGreaterThan(100);
    assertThat(result.orderViolations())
        .as("ordered lanes run out of order; notes: %s", result.notes())
        .isZero();
    assertThat(result.overlaps())
        .as("ordered lanes running two tasks at once; notes: %s", result.notes())
        .isZero();
    assertThat(result.extra().get("unique_overlaps"))
        .as("a unique key taken again while its task ran; notes: %s", result.notes())
        .isEqualTo(0L);
    // Keys taken again during the load depend on how soon a key's first task ends (on a slow
    // machine, after the load stopped): reported, not asserted. After the drain every key is free.
    assertThat((Long) result.extra().get("unique_keys")).as("unique keys").isGreaterThan(0L);
    assertThat(result.extra().get("unique_keys_retaken_after_drain"))
        .as("unique keys freed by their tasks' ends and taken again after the drain")
        .isEqualTo(result.extra().get("unique_keys"));
    assertThat((Long) result.extra().get("rate_limited_started"))
        .as("rate-limited tasks that started")
        .isGreaterThan(20L);
    assertThat(result.extra().get("rate_over_limit"))
        .as("starts of rate-limited tasks above rate + burst; notes: %s", result.notes())
        .isEqualTo(0L);
    assertThat((Long) result.extra().get("batch_callbacks"))
        .as("batch callbacks that ran")
        .isGreaterThan(5L);
    assertThat(result.extra().get("batch_violations"))
        .as("batch callbacks missing, run twice, miscounted or early; notes: %s", result.notes())
        .isEqualTo(0L);
    assertThat(result.extra().get("schedule_fires")).as("1-second schedule fires").isNotEqualTo(0L);
    assertThat(result.lostFires()).as("schedule fires without effect").isZero();
    assertThat(result.duplicateFires()).as("schedule fires run twice").isZero();
    assertThat(result.earlyFires()).as("schedule fires started early").isZero();
    assertThat(result.misfiresOutsideFaults())
        .as("schedule fires skipped while no fault made them late; notes: %s", result.notes())
        .isZero();
  }

  @Test
  void flagsAreParsedAndChecked() {
    ChaosOptions o = ChaosMain.parse("--cycles", "100", "--rate", "50", "--no-binlog-purge");
    assertThat(o.cycles()).isEqualTo(100);
    assertThat(o.rate()).isEqualTo(50);
    assertThat(o.binlogPurge()).isFalse();
    assertThat(o.brokerRestart()).isTrue();
    assertThat(o.db()).isEqualTo(DatabaseKind.MARIADB);
    assertThat(ChaosMain.parse("--db", "postgres").db()).isEqualTo(DatabaseKind.POSTGRESQL);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChaosMain.parse("--db", "oracle"))
        .hasMessageContaining("--db oracle is not supported: use one of mariadb, postgres");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChaosMain.parse("--cycles", "0"))
        .hasMessageContaining("ChaosOptions.cycles must be in 1–10,000".replace(",", ""));
    assertThat(o.brokers()).isEqualTo(1);
    assertThat(ChaosMain.parse("--brokers", "3").brokers()).isEqualTo(3);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChaosMain.parse("--brokers", "2"))
        .hasMessageContaining("ChaosOptions.brokers must be 1 or 3, got 2");
  }
}
