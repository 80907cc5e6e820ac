package io.tasklane.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free TCP ports for the apps' HTTP servers. */
public final class FreePorts {
  private FreePorts() {}

  /** A port that was free a moment ago (the OS picks it; another process may take it since). */
  public static int next() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }
}
