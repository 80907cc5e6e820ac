package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BinlogGuardTest {
  private static final List<BinlogGuard.Binlog> LOGS =
      List.of(
          new BinlogGuard.Binlog("mysql-bin.000004", 1000),
          new BinlogGuard.Binlog("mysql-bin.000005", 2000),
          new BinlogGuard.Binlog("mysql-bin.000006", 300));

  @Test
  void countsFilesBeforeTheOffsetAndBytesBehind() {
    var a = BinlogGuard.assess(LOGS, "mysql-bin.000005", 1500);
    assertThat(a.filesBefore()).isEqualTo(1);
    assertThat(a.bytesBehind()).isEqualTo(500 + 300);
    assertThat(a.gone()).isFalse();
  }

  @Test
  void theOldestFileHasNoHeadroom() {
    assertThat(BinlogGuard.assess(LOGS, "mysql-bin.000004", 4).filesBefore()).isZero();
  }

  @Test
  void aPurgedFileIsGone() {
    assertThat(BinlogGuard.assess(LOGS, "mysql-bin.000002", 4).gone()).isTrue();
  }

  @Test
  void recognisesTheServersLostPositionErrors() {
    assertThat(
            LeaderTerm.looksLikeLostPosition(
                new RuntimeException(
                    "x",
                    new IllegalStateException(
                        "Could not find GTID state requested by slave in any binlog files. Error code: 1236"))))
        .isTrue();
    assertThat(LeaderTerm.looksLikeLostPosition(new RuntimeException("Connection refused")))
        .isFalse();
  }
}
