package io.tasklane.examples.orders;

import io.tasklane.core.BatchCounts;
import io.tasklane.worker.PermanentTaskException;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;

/** The other cases of the demo: a flaky partner, a broken report, a two-step pipeline. */
@Singleton
public class ScenarioHandlers {
  public static final String PARTNER = "partner.notify";
  public static final String BROKEN = "report.broken";
  public static final String STEP = "pipeline.step";
  public static final String DUPLICATE = "coupon.grant";
  public static final String REMINDER = "reminder.send";
  public static final String BATCH_REPORT = "batch.report";
  public static final String REPAIRABLE = "invoice.render";

  /** Fails on its first two attempts, then succeeds: retried with backoff by the scheduler. */
  @TaskHandler(PARTNER)
  public void notifyPartner(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    if (ctx.attempt() < 3) {
      throw new IllegalStateException("partner answered 503 (attempt " + ctx.attempt() + ")");
    }
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, PARTNER, ref.orderId(), started);
          return null;
        });
  }

  /** Always fails: goes DEAD after its attempts and lands on the handler's DLT. */
  @TaskHandler(BROKEN)
  public void brokenReport(OrderRef ref, TaskContext ctx) {
    if (ctx.attempt() >= 2) {
      throw new PermanentTaskException("report template missing for order " + ref.orderId());
    }
    throw new IllegalArgumentException("report renderer crashed");
  }

  /**
   * Fails permanently (DEAD at once) until its payload's {@code brokenUntil} passes, as a handler
   * does until a fix is deployed; an operator's retry after that succeeds.
   */
  @TaskHandler(REPAIRABLE)
  public void renderInvoice(RepairRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    if (started < ref.brokenUntil()) {
      ctx.log().error("invoice template v2 not deployed yet for order {}", ref.orderId());
      throw new PermanentTaskException("invoice template missing for order " + ref.orderId());
    }
    ctx.log().info("rendered the invoice of order {}", ref.orderId());
    ctx.progress(90, "invoice rendered, storing it");
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, REPAIRABLE, ref.orderId(), started);
          return null;
        });
    ctx.progress(100, "invoice of order " + ref.orderId() + " stored");
  }

  /** One step of a pipeline; step B of each pair depends on step A. */
  @TaskHandler(STEP)
  public void step(StepRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, STEP + "." + ref.step(), ref.pair(), started);
          return null;
        });
  }

  /** Submitted twice with the same key: must take effect once. */
  @TaskHandler(DUPLICATE)
  public void grantCoupon(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, DUPLICATE, ref.orderId(), started);
          return null;
        });
  }

  /** Runs at once; the demo cancels it after it ran, which must change nothing. */
  /**
   * A batch's callback: one effect whose ref is the number of members that SUCCEEDED, read from the
   * callback's headers ({@link BatchCounts}); -1 when the task is no batch's callback.
   */
  @TaskHandler(BATCH_REPORT)
  public void batchReport(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    long succeeded = BatchCounts.from(ctx.headers()).map(BatchCounts::succeeded).orElse(-1L);
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, BATCH_REPORT, succeeded, started);
          return null;
        });
  }

  @TaskHandler(REMINDER)
  public void remind(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, REMINDER, ref.orderId(), started);
          return null;
        });
  }

  /** The payload of {@link #renderInvoice}: broken until epoch millis {@code brokenUntil}. */
  public record RepairRef(long orderId, long brokenUntil) {}

  /** The payload of a pipeline step. */
  public record StepRef(long pair, String step) {}
}
