package io.tasklane.scheduler.internal;

import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The host part of {@code application.server} when {@code advertised-host} is not set: the
 * machine's host name when it resolves to a non-loopback address (other instances can likely
 * resolve it too), else its first non-loopback address (IPv4 first); the start fails when it has
 * none, because {@code localhost} would send other instances' forwarded status reads to themselves.
 */
final class AdvertisedHost {
  private AdvertisedHost() {}

  static String of(SchedulerConfig config) {
    return config.advertisedHost() != null ? config.advertisedHost() : detect();
  }

  static String detect() {
    try {
      InetAddress local = InetAddress.getLocalHost();
      if (!local.isLoopbackAddress() && !local.isLinkLocalAddress()) {
        return local.getHostName();
      }
    } catch (java.io.IOException e) {
      // no resolvable host name: look at the interfaces
    }
    List<InetAddress> found = new ArrayList<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (InetAddress a : Collections.list(nic.getInetAddresses())) {
          if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
            found.add(a);
          }
        }
      }
    } catch (SocketException e) {
      // reported below
    }
    found.sort(
        (a, b) -> Boolean.compare(!(a instanceof Inet4Address), !(b instanceof Inet4Address)));
    if (found.isEmpty()) {
      throw new SchedulerException(
          SchedulerConfig.PREFIX
              + ".advertised-host: not set, and this machine has no non-loopback address to"
              + " advertise; set it to the host name or address other scheduler instances reach"
              + " this one at (localhost only works for a single instance)");
    }
    String host = found.get(0).getHostAddress();
    int zone = host.indexOf('%');
    return zone < 0 ? host : host.substring(0, zone);
  }
}
