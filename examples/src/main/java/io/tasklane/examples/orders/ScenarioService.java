package io.tasklane.examples.orders;

import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.core.RetryPolicy;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import jakarta.inject.Singleton;
import java.time.Duration;

/** Enqueues the non-order cases of the demo, each in its own transaction. */
@Singleton
public class ScenarioService {
  private static final RetryPolicy FAST =
      RetryPolicy.fixed(Duration.ofMillis(500), Duration.ofSeconds(1));
  private final TaskOutbox outbox;

  public ScenarioService(TaskOutbox outbox) {
    this.outbox = outbox;
  }

  /** A partner call that succeeds on its third attempt. */
  @Transactional
  public String flakyPartner(long ref) {
    return outbox.enqueue(
        TaskRequest.to(ScenarioHandlers.PARTNER)
            .payload(new OrderRef(ref))
            .maxAttempts(5)
            .backoff(FAST));
  }

  /** A report that always fails: DEAD after its second attempt. */
  @Transactional
  public String brokenReport(long ref) {
    return outbox.enqueue(
        TaskRequest.to(ScenarioHandlers.BROKEN)
            .payload(new OrderRef(ref))
            .maxAttempts(3)
            .backoff(FAST));
  }

  /**
   * A report that always fails, in the ordered lane {@code lane} of its handler: the first such
   * report to go DEAD blocks the lane, and those enqueued after it wait (docs/lanes.md).
   */
  @Transactional
  public String brokenReportInLane(long ref, String lane) {
    return outbox.enqueue(
        TaskRequest.to(ScenarioHandlers.BROKEN)
            .payload(new OrderRef(ref))
            .orderingKey(lane)
            .maxAttempts(3)
            .backoff(FAST));
  }

  /** Step A, and step B which depends on A; returns B's id. */
  @Transactional
  public String pipeline(long pair) {
    String a =
        outbox.enqueue(
            TaskRequest.to(ScenarioHandlers.STEP)
                .payload(new ScenarioHandlers.StepRef(pair, "a"))
                .delay(Duration.ofMillis(300)));
    return outbox.enqueue(
        TaskRequest.to(ScenarioHandlers.STEP)
            .payload(new ScenarioHandlers.StepRef(pair, "b"))
            .dependsOn(a));
  }

  /** A task for a handler no worker has yet (see {@link LateHandlers}). */
  @Transactional
  public String lateAudit(long ref) {
    return outbox.enqueue(TaskRequest.to(LateHandlers.AUDIT).payload(new OrderRef(ref)));
  }

  /** A reminder, and (in its own transaction, later) a cancel that comes after it ran. */
  @Transactional
  public String reminder(long ref) {
    return outbox.enqueue(TaskRequest.to(ScenarioHandlers.REMINDER).payload(new OrderRef(ref)));
  }

  @Transactional
  public void cancel(String taskId) {
    outbox.cancel(taskId);
  }

  /** Submits the same keyed task twice, in two transactions. */
  public void duplicateCoupon(long ref) {
    grantCoupon(ref);
    grantCoupon(ref);
  }

  @Transactional
  public String grantCoupon(long ref) {
    return outbox.enqueue(
        TaskRequest.to(ScenarioHandlers.DUPLICATE).payload(new OrderRef(ref)).key("coupon-" + ref));
  }

  /**
   * An invoice whose handler fails permanently until {@code brokenUntil} (epoch millis): DEAD at
   * once, and an operator's retry-dead after that time succeeds.
   */
  @Transactional
  public String repairableInvoice(long ref, long brokenUntil) {
    return outbox.enqueue(
        TaskRequest.to(ScenarioHandlers.REPAIRABLE)
            .payload(new ScenarioHandlers.RepairRef(ref, brokenUntil))
            .maxAttempts(1));
  }
}
