package io.tasklane.relay.internal;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Real readiness: true only when the connector's binlog client (MariaDB/MySQL) or replication
 * stream (PostgreSQL) is connected (Debezium's streaming metrics MBean {@code
 * debezium.<connector>:type=connector-metrics,context=streaming,server=<name>}, where the connector
 * is {@code mariadb}, {@code mysql} or {@code postgres}, attribute {@code Connected}). {@code
 * taskStarted()} fires earlier than that. Thread-safe.
 */
final class StreamingProbe {
  private final ObjectName pattern;

  StreamingProbe(String serverName) {
    try {
      pattern =
          new ObjectName(
              "debezium.*:type=connector-metrics,context=streaming,server=" + serverName + ",*");
    } catch (Exception e) {
      throw new IllegalArgumentException("bad server name " + serverName, e);
    }
  }

  boolean connected() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names = server.queryNames(pattern, null);
    for (ObjectName name : names) {
      try {
        if (Boolean.TRUE.equals(server.getAttribute(name, "Connected"))) {
          return true;
        }
      } catch (Exception e) {
        // unregistered between query and read: not connected
      }
    }
    return false;
  }
}
