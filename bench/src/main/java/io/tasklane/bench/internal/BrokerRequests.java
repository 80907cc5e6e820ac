package io.tasklane.bench.internal;

import com.sun.tools.attach.VirtualMachine;
import java.util.Collection;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The produce requests the brokers of a run have handled, from their own request metrics ({@code
 * kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce}, one meter per request
 * version, summed): read over JMX from each broker JVM, whose local management agent is started
 * through the JDK's attach API (same user, same machine; no JMX port is opened on the brokers). Two
 * {@link #count samples} around a scenario give its produce requests per task — the broker pays per
 * request. Used on the run's thread.
 */
final class BrokerRequests {
  private static final String PRODUCE =
      "kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,*";

  private BrokerRequests() {}

  /**
   * Produce requests handled so far by the broker JVMs {@code pids}, or -1 when one cannot be read
   * (no attach support, or a broker gone).
   */
  static long count(Collection<Long> pids) {
    long total = 0;
    for (long pid : pids) {
      long n = count(pid);
      if (n < 0) {
        return -1;
      }
      total += n;
    }
    return total;
  }

  private static long count(long pid) {
    return sum(pid, PRODUCE, "Count");
  }

  /**
   * The sum of the numeric {@code attribute} over every MBean matching {@code pattern} in the JVM
   * {@code pid}, or -1 when none matches or the JVM cannot be read.
   */
  static long sum(long pid, String pattern, String attribute) {
    try {
      VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
      String address;
      try {
        address = vm.startLocalManagementAgent();
      } finally {
        vm.detach();
      }
      try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
        MBeanServerConnection m = c.getMBeanServerConnection();
        Set<ObjectName> names = m.queryNames(new ObjectName(pattern), null);
        double total = 0;
        for (ObjectName n : names) {
          total += ((Number) m.getAttribute(n, attribute)).doubleValue();
        }
        return names.isEmpty() ? -1 : Math.round(total);
      }
    } catch (Exception | LinkageError e) {
      return -1;
    }
  }
}
