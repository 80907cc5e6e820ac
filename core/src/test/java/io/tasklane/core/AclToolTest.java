package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code bin/kafka-acls-tasklane}'s command line ({@link AclTool}), with {@code --dry-run}. */
class AclToolTest {
  static String dryRun(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = "--dry-run";
    assertThat(AclTool.run(all, new PrintStream(out, true, StandardCharsets.UTF_8))).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theRelayRoleTakesTheRelaysNameAndRefusesToGuessIt() {
    String out =
        dryRun(
            "--role",
            "relay",
            "--principal",
            "User:relay",
            "--namespace",
            "shop",
            "--name",
            "tasklane_relay_orders");
    assertThat(out)
        .contains("User:relay")
        .contains("shop.tasks")
        .contains("tasklane_relay_orders-schemahistory")
        .contains("shop.unique-releases")
        .contains("shop.relay-unique-releases");
    assertThatThrownBy(() -> dryRun("--role", "relay", "--principal", "User:relay"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--name is required for relay");
  }

  @Test
  void theSchedulerAndWorkerNamesDefaultToTheNamespaces() {
    assertThat(dryRun("--role", "scheduler", "--principal", "User:s", "--namespace", "shop"))
        .contains("shop-scheduler");
    assertThat(
            dryRun(
                "--role",
                "worker",
                "--principal",
                "User:w",
                "--namespace",
                "shop",
                "--handlers",
                "email.send"))
        .contains("shop-worker.email.send")
        .contains("shop.handler.email.send");
  }
}
