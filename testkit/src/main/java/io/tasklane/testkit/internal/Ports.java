package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/** Picks and checks TCP ports on 127.0.0.1. Stateless; any thread. */
public final class Ports {

  private static final int MIN_PORT = 10_000;

  private Ports() {}

  /**
   * Returns {@code configured} after checking it is free, or a free port when it is 0.
   *
   * @param field the config field, named in the error, e.g. {@code mariaDbPort}
   * @throws LocalStackException naming the port and the field if the port is taken
   */
  public static int resolve(String what, String field, int configured) {
    if (configured == 0) {
      return pickFree();
    }
    try (ServerSocket socket = bind(configured)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new LocalStackException(
          what
              + " port "
              + configured
              + " on 127.0.0.1 is already in use (LocalStackConfig."
              + field
              + "); choose another port or 0 for a free one");
    }
  }

  /**
   * A port that was free a moment ago, picked at random BELOW the kernel's ephemeral range, so that
   * outgoing connections (which take their local port from that range) cannot grab it between this
   * check and the server's bind. Falls back to a kernel-chosen port.
   */
  public static int pickFree() {
    int below = ephemeralRangeStart();
    int low = Math.max(MIN_PORT, below - 12_000);
    for (int i = 0; i < 50 && below - low > 100; i++) {
      int candidate = ThreadLocalRandom.current().nextInt(low, below);
      try (ServerSocket socket = bind(candidate)) {
        return socket.getLocalPort();
      } catch (IOException e) {
        // taken: try another
      }
    }
    try (ServerSocket socket = bind(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new LocalStackException("cannot find a free TCP port on 127.0.0.1: " + e, e);
    }
  }

  private static int ephemeralRangeStart() {
    try {
      // Files.readString trusts the size procfs reports and may return a truncated line.
      try (BufferedReader in =
          Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
        return Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
      }
    } catch (IOException | RuntimeException e) {
      return 32768;
    }
  }

  private static ServerSocket bind(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    try {
      // Like the servers themselves: TIME_WAIT is fine, a listener on the port is not.
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }
}
