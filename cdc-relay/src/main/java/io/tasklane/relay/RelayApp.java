package io.tasklane.relay;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay as a process: {@code java -cp ... io.tasklane.relay.RelayApp [--config
 * relay.properties]}. Settings come from the file, {@code -Dtasklane.relay.*} and {@code
 * TASKLANE_RELAY_*} (env wins). Runs until SIGTERM; exits 2 on a configuration error.
 */
public final class RelayApp {
  private static final Logger LOG = LoggerFactory.getLogger(RelayApp.class);

  private RelayApp() {}

  public static void main(String[] args) throws InterruptedException {
    RelayConfig config;
    try {
      config = RelayConfigLoader.load(args);
    } catch (InvalidRelayConfigException e) {
      System.err.println("tasklane relay: " + e.getMessage());
      System.exit(2);
      return;
    }
    Relay relay = Relay.start(config);
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("shutting down");
                  relay.close();
                  done.countDown();
                },
                "tasklane-relay-shutdown"));
    done.await();
  }
}
