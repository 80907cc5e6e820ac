package io.tasklane.chaos.internal;

import io.tasklane.examples.orders.LaneHandlers;
import io.tasklane.examples.orders.LaneHandlers.LaneEvent;
import io.tasklane.outbox.TaskRequest;
import java.util.random.RandomGenerator;

/**
 * The ordered share of the load: {@value #SHARE_PERCENT} % of the tasks go to {@link
 * LaneHandlers#EVENT} with an {@code orderingKey}, one of {@value #LANES} lanes ({@code order-0}…),
 * in runs of 1–{@value #MAX_RUN} consecutive tasks of one lane, each with the next sequence number
 * of its lane in the payload; {@value #FAILING_PERCENT} % of them fail their first attempt (the
 * lane stays held through the retry). Used on the load's thread only.
 */
final class OrderedLanes {
  static final int SHARE_PERCENT = 33;
  static final int LANES = 400;
  static final int MAX_RUN = 6;
  static final int FAILING_PERCENT = 10;

  private final long[] nextSeq = new long[LANES];
  private int lane;
  private int runLeft;

  /** Whether the next task of the load is an ordered one. */
  static boolean chosen(RandomGenerator random) {
    return random.nextInt(100) < SHARE_PERCENT;
  }

  /** The next ordered task: the current run's lane, or a new run on a random lane. */
  LaneEvent next(RandomGenerator random, long ref) {
    if (runLeft == 0) {
      lane = random.nextInt(LANES);
      runLeft = 1 + random.nextInt(MAX_RUN);
    }
    runLeft--;
    int failures = random.nextInt(100) < FAILING_PERCENT ? 1 : 0;
    return new LaneEvent(ref, "order-" + lane, nextSeq[lane]++, failures);
  }

  /** The request of {@code event}: an immediate task in the lane {@code event.lane()}. */
  static TaskRequest request(LaneEvent event) {
    return TaskRequest.to(LaneHandlers.EVENT)
        .payload(event)
        .orderingKey(event.lane())
        .maxAttempts(Mix.MAX_ATTEMPTS)
        .backoff(Mix.FAST);
  }
}
