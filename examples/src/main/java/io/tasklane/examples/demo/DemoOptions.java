package io.tasklane.examples.demo;

import io.tasklane.harness.DatabaseKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What the demo runs: {@code orders} orders at {@code rate} per second, each cancelled after {@code
 * unpaidTimeout} unless paid (a share {@code payRatio} is paid in time), and {@code cases} of each
 * scenario case (flaky partner, broken report, dependency pair, duplicate submission), with the
 * outbox and the effects on {@code db} (MariaDB or PostgreSQL). With {@code keep} the stack and the
 * apps stay up after the summary ({@link KeptDemo}).
 */
record DemoOptions(
    int orders,
    int rate,
    Duration unpaidTimeout,
    double payRatio,
    int cases,
    Duration settleTimeout,
    Path home,
    DatabaseKind db,
    boolean keep) {

  DemoOptions {
    Objects.requireNonNull(db, "--db must be set");
    if (orders < 1 || orders > 1_000_000) {
      throw new IllegalArgumentException("--orders " + orders + " is outside 1 to 1000000");
    }
    if (rate < 1 || rate > 10_000) {
      throw new IllegalArgumentException("--rate " + rate + " is outside 1 to 10000 orders/s");
    }
    if (unpaidTimeout.isNegative() || unpaidTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new IllegalArgumentException("--delay must be 0 s to 10 min, was " + unpaidTimeout);
    }
    if (payRatio < 0 || payRatio > 0.95) {
      throw new IllegalArgumentException("--pay-ratio " + payRatio + " is outside 0 to 0.95");
    }
    if (cases < 1 || cases > orders) {
      throw new IllegalArgumentException("--cases " + cases + " is outside 1 to --orders");
    }
  }
}
