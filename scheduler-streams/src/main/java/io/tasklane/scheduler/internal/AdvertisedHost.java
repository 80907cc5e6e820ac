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
 * The host part of {@code application.server} when {@code advertised-host} is not set: the HTTP
 * server's bind address when it is a loopback one ({@code micronaut.server.host}, 127.0.0.1 by
 * default: only instances on this machine can reach it anyway); else the machine's host name when
 * it resolves to a non-loopback address (other instances can likely resolve it too), else its first
 * non-loopback address (IPv4 first); the start fails when it has none.
 */
final class AdvertisedHost {
  private AdvertisedHost() {}

  /**
   * @param bindHost {@code micronaut.server.host}, or null when the server binds every interface
   */
  static String of(SchedulerConfig config, String bindHost) {
    if (config.advertisedHost() != null) {
      return config.advertisedHost();
    }
    return loopback(bindHost) ? bindHost : detect();
  }

  static boolean loopback(String host) {
    if (host == null || host.isBlank()) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.io.IOException e) {
      return false;
    }
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
