package io.tasklane.examples.demo;

import io.tasklane.harness.Cli;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/demo}: the order scenario on the real pipeline. Exit 0 only if every invariant holds.
 */
@Command(
    name = "bin/demo",
    mixinStandardHelpOptions = true,
    description = "Runs the Tasklane order demo on the embedded local stack.")
public final class DemoMain implements Callable<Integer> {
  @Option(
      names = "--orders",
      defaultValue = "3000",
      description = "orders to create (${DEFAULT-VALUE})")
  int orders;

  @Option(
      names = "--rate",
      defaultValue = "60",
      description = "orders per second (${DEFAULT-VALUE})")
  int rate;

  @Option(
      names = "--delay",
      defaultValue = "PT10S",
      description = "unpaid orders are cancelled after this ISO duration (${DEFAULT-VALUE})")
  Duration delay;

  @Option(
      names = "--pay-ratio",
      defaultValue = "0.5",
      description = "share paid in time (${DEFAULT-VALUE})")
  double payRatio;

  @Option(
      names = "--cases",
      defaultValue = "30",
      description = "count of each scenario case (${DEFAULT-VALUE})")
  int cases;

  @Option(
      names = "--settle-timeout",
      defaultValue = "PT3M",
      description = "wait for the pipeline to drain (${DEFAULT-VALUE})")
  Duration settleTimeout;

  @Option(
      names = "--keep",
      description =
          "after the summary, leave the stack and the apps running and print the API URL, tokens"
              + " and bin/tasklane commands (stop them with --stop)")
  boolean keep;

  @Option(
      names = "--stop",
      description = "stop everything a kept demo (--keep) left running and remove its state")
  boolean stop;

  @Mixin Cli.Db db;

  @Mixin Cli.Home home;

  @Override
  public Integer call() throws Exception {
    if (stop) {
      return KeptDemo.stop(home.path(), System.out);
    }
    DemoOptions options = options();
    try (DemoRun run = new DemoRun(options, System.out, null)) {
      return run.execute() ? 0 : 1;
    }
  }

  /** The run the flags describe; throws IllegalArgumentException naming a refused value. */
  DemoOptions options() {
    return new DemoOptions(
        orders, rate, delay, payRatio, cases, settleTimeout, home.path(), db.kind(), keep);
  }

  public static void main(String[] args) {
    Cli.exit(new DemoMain(), args);
  }
}
