package io.tasklane.chaos.internal;

import io.tasklane.core.RetryPolicy;
import io.tasklane.core.UniqueUntil;
import io.tasklane.examples.orders.OrderRef;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.outbox.TaskRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The task mix of the load, all with example handlers that write one effect row through the JDBC
 * idempotency store: 60 % immediate reminders (priorities 0, 5 and 9 in turn; a twelfth of them
 * unique by key until they end, {@link #unique}; in their place 3 % coupon grants counted against
 * the named rate limit {@value #LIMIT}, {@link #limited}), 25 % reminders delayed 1–5 s, 15 %
 * partner calls that fail twice and succeed on attempt 3 (retried by the scheduler).
 */
public final class Mix {
  static final RetryPolicy FAST = RetryPolicy.fixed(Duration.ofMillis(500), Duration.ofSeconds(1));

  /** The priorities of the immediate reminders, in turn: the backlogs after a fault mix them. */
  static final int[] PRIORITIES = {0, 5, 9};

  /** Enough attempts that kills and restarts never exhaust them (a DEAD task counts as lost). */
  static final int MAX_ATTEMPTS = 50;

  /** The share of unique reminders ({@link #unique}), taken from the immediate ones. */
  static final double UNIQUE_SHARE = 0.05;

  /** The share of rate-limited coupon grants ({@link #limited}), taken from the reminders. */
  static final double LIMITED_SHARE = 0.03;

  /** The named rate limit of {@link #limited} reminders, defined on the chaos schedulers. */
  public static final String LIMIT = "chaos-partner";

  /** Its rate, starts a second: above the share of the load, so a backlog after a fault drains. */
  public static final int LIMIT_RATE = 50;

  /** Its burst. */
  public static final int LIMIT_BURST = 10;

  /** How many keys the unique reminders share, so that each key comes back every few seconds. */
  static final int UNIQUE_KEYS = 20;

  private Mix() {}

  /** The next request; {@code ref} goes into the payload (and the effect row). */
  public static TaskRequest next(RandomGenerator random, long ref) {
    double dice = random.nextDouble();
    OrderRef payload = new OrderRef(ref);
    if (dice < UNIQUE_SHARE) {
      return unique(ref);
    }
    if (dice < UNIQUE_SHARE + LIMITED_SHARE) {
      return limited(ref);
    }
    if (dice < 0.60) {
      return TaskRequest.to(ScenarioHandlers.REMINDER)
          .payload(payload)
          .maxAttempts(MAX_ATTEMPTS)
          .priority(PRIORITIES[(int) (ref % PRIORITIES.length)]);
    }
    if (dice < 0.85) {
      return TaskRequest.to(ScenarioHandlers.REMINDER)
          .payload(payload)
          .maxAttempts(MAX_ATTEMPTS)
          .delay(Duration.ofMillis(1000 + random.nextInt(4000)));
    }
    return TaskRequest.to(ScenarioHandlers.PARTNER)
        .payload(payload)
        .maxAttempts(MAX_ATTEMPTS)
        .backoff(FAST);
  }

  /**
   * An immediate reminder whose key is one of {@value #UNIQUE_KEYS} ({@link #uniqueKey}), unique
   * for an hour or until it ends: while one is pending or running, enqueuing its key again returns
   * it; once it ended, the next enqueue creates a new task ({@link UniqueCheck}).
   */
  static TaskRequest unique(long ref) {
    return uniqueWithKey(uniqueKey(ref), ref);
  }

  /**
   * An immediate coupon grant (a handler of its own, with its own threads, that writes one effect
   * row like the reminders) whose starts count against the named limit {@value #LIMIT} ({@value
   * #LIMIT_RATE}/s, burst {@value #LIMIT_BURST}): never more than {@code rate + burst} start in any
   * second ({@link RateCheck}).
   */
  static TaskRequest limited(long ref) {
    return TaskRequest.to(ScenarioHandlers.DUPLICATE)
        .payload(new OrderRef(ref))
        .rateLimit(LIMIT)
        .maxAttempts(MAX_ATTEMPTS);
  }

  /** The key of a unique reminder: {@code unique-0} … */
  /** A unique reminder as {@link #unique} makes it, on key {@code key}. */
  static TaskRequest uniqueWithKey(String key, long ref) {
    return TaskRequest.to(ScenarioHandlers.REMINDER)
        .payload(new OrderRef(ref))
        .key(key)
        .unique(Duration.ofHours(1), UniqueUntil.END)
        .maxAttempts(MAX_ATTEMPTS);
  }

  static String uniqueKey(long ref) {
    return "unique-" + (ref % UNIQUE_KEYS);
  }

  /** Members of each batch ({@link #batchMembers}). */
  public static final int BATCH_MEMBERS = 10;

  /**
   * The members of a batch: {@value #BATCH_MEMBERS} reminders delayed 1–3 s, so that a callback
   * made before its members ended would start before some of them ({@link BatchCheck}).
   */
  static List<TaskRequest> batchMembers(RandomGenerator random, long firstRef) {
    List<TaskRequest> members = new ArrayList<>(BATCH_MEMBERS);
    for (int i = 0; i < BATCH_MEMBERS; i++) {
      members.add(
          TaskRequest.to(ScenarioHandlers.REMINDER)
              .payload(new OrderRef(firstRef + i))
              .maxAttempts(MAX_ATTEMPTS)
              .delay(Duration.ofMillis(1000 + random.nextInt(2000))));
    }
    return members;
  }

  /** A batch's onComplete callback: writes the members' SUCCEEDED count as its effect's ref. */
  static TaskRequest batchReport(long seq) {
    return TaskRequest.to(ScenarioHandlers.BATCH_REPORT)
        .payload(new OrderRef(seq))
        .maxAttempts(MAX_ATTEMPTS);
  }

  /** A probe: an immediate reminder with a negative ref. */
  public static TaskRequest probe(long ref) {
    return TaskRequest.to(ScenarioHandlers.REMINDER)
        .payload(new OrderRef(-ref))
        .maxAttempts(MAX_ATTEMPTS);
  }
}
