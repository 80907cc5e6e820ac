package io.tasklane.examples.demo;

import io.tasklane.examples.orders.OrderService;
import io.tasklane.examples.orders.ScenarioService;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Offers the demo's load: orders at a fixed rate (each paid, late or never, at random), plus the
 * scenario cases spread over the run. Runs on its own scheduler threads; {@link #awaitOffered}
 * blocks the caller until everything was submitted.
 */
final class Workload implements AutoCloseable {
  private final DemoOptions options;
  private final OrderService orders;
  private final ScenarioService scenarios;
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4);
  private final Random random = new Random(42);
  private final AtomicInteger offered = new AtomicInteger();
  private final AtomicInteger handled = new AtomicInteger();
  private final AtomicInteger paymentsDue = new AtomicInteger();
  private final List<String> brokenIds = new CopyOnWriteArrayList<>();
  private final List<String> partnerIds = new CopyOnWriteArrayList<>();
  private final List<Throwable> errors = new CopyOnWriteArrayList<>();
  private final java.util.function.Predicate<String> ran;

  /**
   * @param ran whether the task of an id has run (its effect is written): the late cancel of a
   *     reminder waits for it, as a loaded pipeline may start the reminder seconds after its commit
   */
  Workload(
      DemoOptions options,
      OrderService orders,
      ScenarioService scenarios,
      java.util.function.Predicate<String> ran) {
    this.options = options;
    this.orders = orders;
    this.scenarios = scenarios;
    this.ran = ran;
  }

  /** Starts offering; returns at once. */
  void start() {
    long periodMicros = 1_000_000L / Math.max(1, options.rate());
    timer.scheduleAtFixedRate(this::offerOne, 0, periodMicros, TimeUnit.MICROSECONDS);
  }

  private void offerOne() {
    int n = offered.getAndIncrement();
    if (n >= options.orders()) {
      return;
    }
    try {
      long id = orders.create(options.unpaidTimeout());
      double dice = random.nextDouble();
      if (dice < options.payRatio()) {
        long payAfter = (long) (random.nextDouble() * options.unpaidTimeout().toMillis() * 0.8);
        paymentsDue.incrementAndGet();
        timer.schedule(() -> pay(id), payAfter, TimeUnit.MILLISECONDS);
      } else if (dice < options.payRatio() + 0.05) {
        long late = options.unpaidTimeout().toMillis() + 2_000;
        paymentsDue.incrementAndGet();
        timer.schedule(() -> pay(id), late, TimeUnit.MILLISECONDS);
      }
      scenarioCases(n);
    } catch (RuntimeException e) {
      errors.add(e);
    } finally {
      handled.incrementAndGet();
    }
  }

  private void scenarioCases(int n) {
    int every = Math.max(1, options.orders() / options.cases());
    if (n % every != 0) {
      return;
    }
    partnerIds.add(scenarios.flakyPartner(n));
    brokenIds.add(scenarios.brokenReport(n));
    scenarios.pipeline(n);
    scenarios.duplicateCoupon(n);
    scenarios.lateAudit(n);
    String reminder = scenarios.reminder(n);
    timer.schedule(() -> cancelAfterItRan(reminder), 3, TimeUnit.SECONDS);
  }

  private void cancelAfterItRan(String taskId) {
    try {
      if (!ran.test(taskId)) {
        timer.schedule(() -> cancelAfterItRan(taskId), 1, TimeUnit.SECONDS);
        return;
      }
      scenarios.cancel(taskId);
    } catch (RuntimeException e) {
      errors.add(e);
    }
  }

  boolean allOffered() {
    return offered.get() >= options.orders();
  }

  private void pay(long id) {
    try {
      orders.pay(id);
    } catch (RuntimeException e) {
      errors.add(e);
    } finally {
      paymentsDue.decrementAndGet();
    }
  }

  /**
   * Waits until every order was created and every payment attempted. The timer keeps running
   * afterwards: a late cancel re-checks every second until its reminder ran, however loaded the
   * pipeline is; {@link #close} stops it.
   */
  void awaitOffered(Duration timeout) throws InterruptedException {
    long deadline =
        System.nanoTime() + timeout.plus(options.unpaidTimeout()).plusSeconds(30).toNanos();
    while ((handled.get() < options.orders() || paymentsDue.get() > 0)
        && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  List<String> brokenIds() {
    return brokenIds;
  }

  List<String> partnerIds() {
    return partnerIds;
  }

  List<Throwable> errors() {
    return errors;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
