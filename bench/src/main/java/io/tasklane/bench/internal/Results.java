package io.tasklane.bench.internal;

import io.tasklane.harness.Database;
import io.tasklane.harness.DatabaseKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The figures of one run: flat keys for results.json, plus the series and histograms the charts
 * draw. Written by the run's thread only.
 */
public final class Results {
  private final Map<String, Object> values = new LinkedHashMap<>();

  /**
   * Completions per second by system name ("Tasklane", "db-scheduler"): [ms since start, count].
   */
  final Map<String, List<long[]>> throughput = new LinkedHashMap<>();

  /** Distributions by chart label, in ms. */
  final Map<String, Histogram> latencies = new LinkedHashMap<>();

  final Map<String, Histogram> lateness = new LinkedHashMap<>();

  /**
   * CPU microseconds per task of each component (database, broker, relay, scheduler, worker,
   * driver) in the throughput scenario, by system name.
   */
  final Map<String, Map<String, Double>> cpuPerTask = new LinkedHashMap<>();

  /** Scheduler changelog records per task by store, per system (the records chart). */
  final Map<String, Map<String, Double>> changelogPerTask = new LinkedHashMap<>();

  /** Scale samples: [s since start, admitted, rss MiB]. */
  final List<double[]> scale = new ArrayList<>();

  public void put(String key, Object value) {
    values.put(key, value instanceof Double d ? Math.round(d * 100) / 100.0 : value);
  }

  public Object get(String key) {
    return values.get(key);
  }

  public Map<String, Object> map() {
    return values;
  }

  static Histogram histogram() {
    return new Histogram(3_600_000L, 3);
  }

  void machine(Database db) {
    put("machine_cores", Runtime.getRuntime().availableProcessors());
    put("machine_memory_mb", memTotalMb());
    put("machine_cpu", cpuModel());
    put(
        "java_version",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    put("kafka_version", org.apache.kafka.common.utils.AppInfoParser.getVersion());
    boolean pg = db.kind() == DatabaseKind.POSTGRESQL;
    String versionKey = pg ? "postgresql_version" : "mariadb_version";
    try (Connection c = db.connect();
        ResultSet rs =
            c.createStatement().executeQuery(pg ? "SHOW server_version" : "SELECT VERSION()")) {
      rs.next();
      put(versionKey, rs.getString(1));
    } catch (Exception e) {
      put(versionKey, "unknown: " + e.getMessage());
    }
    put("db", db.kind().flag());
    put("db_scheduler_version", "15.1.1");
    put("tasklane_version", "0.1.0");
    String kafka =
        " Kafka single KRaft broker, replication factor 1, acks=all, log flush left to the OS";
    if (pg) {
      put(
          "pg_durability",
          "PostgreSQL of the testkit with fsync=off, synchronous_commit=off, wal_writer_delay=1ms, full_page_writes=off"
              + " (commits not durable: not comparable with the durable MariaDB figures);"
              + kafka);
    } else {
      put(
          "durability",
          "MariaDB innodb_flush_log_at_trx_commit=1, sync_binlog=1 (durable commits);" + kafka);
    }
  }

  private static long memTotalMb() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal:")) {
          return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (Exception e) {
      // not Linux
    }
    return -1;
  }

  private static String cpuModel() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          return l.substring(l.indexOf(':') + 1).trim();
        }
      }
    } catch (Exception e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }
}
