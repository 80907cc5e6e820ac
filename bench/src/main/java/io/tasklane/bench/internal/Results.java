package io.tasklane.bench.internal;

import io.tasklane.testkit.LocalStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
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

  void machine(LocalStack stack, String url) {
    put("machine_cores", Runtime.getRuntime().availableProcessors());
    put("machine_memory_mb", memTotalMb());
    put("machine_cpu", cpuModel());
    put(
        "java_version",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    put("kafka_version", org.apache.kafka.common.utils.AppInfoParser.getVersion());
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        ResultSet rs = c.createStatement().executeQuery("SELECT VERSION()")) {
      rs.next();
      put("mariadb_version", rs.getString(1));
    } catch (Exception e) {
      put("mariadb_version", "unknown: " + e.getMessage());
    }
    put("db_scheduler_version", "15.1.1");
    put("tasklane_version", "0.1.0");
    put(
        "durability",
        "MariaDB innodb_flush_log_at_trx_commit=1, sync_binlog=1 (durable commits);"
            + " Kafka single KRaft broker, replication factor 1, acks=all, log flush left to the OS");
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
