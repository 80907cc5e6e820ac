package io.tasklane.relay.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares the relay's binlog position with the server's binlog files ({@code SHOW BINARY LOGS}):
 * how many older files the server keeps before the offset's file (0 = the next purge loses it) and
 * how many bytes the relay is behind. Warns below a threshold. Leader loop thread only.
 */
final class BinlogGuard {
  private static final Logger LOG = LoggerFactory.getLogger(BinlogGuard.class);

  private final Jdbc jdbc;
  private final RelayMetrics metrics;
  private final int minFilesBefore;

  BinlogGuard(Jdbc jdbc, RelayMetrics metrics, int minFilesBefore) {
    this.jdbc = jdbc;
    this.metrics = metrics;
    this.minFilesBefore = minFilesBefore;
  }

  /** One binlog file of the server. */
  record Binlog(String name, long size) {}

  /**
   * Where a position stands among the server's files.
   *
   * @param filesBefore files older than the position's file, or -1 when the file is gone
   * @param bytesBehind bytes from the position to the end of the newest file, or -1
   */
  record Assessment(long filesBefore, long bytesBehind) {
    boolean gone() {
      return filesBefore < 0;
    }
  }

  List<Binlog> binaryLogs() throws SQLException {
    try (Connection c = jdbc.open();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
      List<Binlog> logs = new ArrayList<>();
      while (rs.next()) {
        logs.add(new Binlog(rs.getString(1), rs.getLong(2)));
      }
      return logs;
    }
  }

  static Assessment assess(List<Binlog> logs, String file, long pos) {
    for (int i = 0; i < logs.size(); i++) {
      if (logs.get(i).name().equals(file)) {
        long behind = Math.max(0, logs.get(i).size() - pos);
        for (int j = i + 1; j < logs.size(); j++) {
          behind += logs.get(j).size();
        }
        return new Assessment(i, behind);
      }
    }
    return new Assessment(-1, -1);
  }

  /** Assesses {@code file:pos}, updates the gauges and warns when the file is about to go. */
  Assessment check(String file, long pos) throws SQLException {
    List<Binlog> logs = binaryLogs();
    Assessment a = assess(logs, file, pos);
    boolean active = !logs.isEmpty() && logs.get(logs.size() - 1).name().equals(file);
    metrics.binlogFilesBefore.set(a.filesBefore());
    metrics.binlogBytesBehind.set(a.bytesBehind());
    if (a.gone()) {
      LOG.warn("binlog guard: the relay's position {}:{} is no longer on the server", file, pos);
    } else if (a.filesBefore() < minFilesBefore && !active) {
      // The server never purges the file it is writing, so only an older file is at risk.
      LOG.warn(
          "binlog guard: the relay's binlog file {} is the oldest the server keeps ({} older files,"
              + " threshold {}); a binlog purge now would lose the relay's position ({} bytes behind)",
          file,
          a.filesBefore(),
          minFilesBefore,
          a.bytesBehind());
    }
    return a;
  }
}
