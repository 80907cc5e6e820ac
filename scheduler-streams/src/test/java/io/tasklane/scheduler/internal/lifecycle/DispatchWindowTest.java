package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DispatchWindowTest {
  private final DispatchWindow w = new DispatchWindow();
  private long now = 1_000_000;

  /**
   * {@code perInterval} results in each interval for {@code ms}, on the way and run as given, while
   * tasks with a key wait for their turns.
   */
  private void results(int perInterval, long ms, long onTheWayMs, long runMs) {
    long end = now + ms;
    while (now < end) {
      w.contended(now);
      for (int i = 0; i < perInterval; i++) {
        w.returned(now + i * DispatchWindow.INTERVAL_MS / perInterval, onTheWayMs, runMs);
      }
      now += DispatchWindow.INTERVAL_MS;
    }
    w.returned(now, onTheWayMs, runMs); // closes the last interval
  }

  @Test
  void maxDispatchedHoldsUntilResultsAreMeasured() {
    assertThat(w.limit(1_000)).isEqualTo(1_000);
    w.returned(now, 40, 10);
    assertThat(w.limit(1_000)).as("one interval not closed yet").isEqualTo(1_000);
  }

  @Test
  void theWindowIsTwiceWhatKeepsTheWorkersBusy() {
    // 1,000 results per 250 ms = 4 per ms; 40 ms on the way + 10 ms run: 200 out keep it busy
    results(1_000, 2_000, 40, 10);
    assertThat(w.limit(1_000)).isEqualTo(2 * 200 + DispatchWindow.HEADROOM);
    assertThat(w.limit(300)).as("max-dispatched stays the ceiling").isEqualTo(300);
  }

  @Test
  void aSchedulerBehindItsResultsMakesRoomForTheWayBackWithoutDoublingIt() {
    // 4 per ms, 40 ms out + 10 ms run, and each result read 1,000 ms after its end (the stream
    // thread behind its results): 4,000 attempts ended but not yet counted back take slots as
    // long as they are behind, once; only the way out is doubled, so that no queue in the handler
    // topic is kept for the lag (measured as way out, it would be 2 × 4 × 1,050 = 8,400)
    long end = now + 2_000;
    while (now < end) {
      w.contended(now);
      for (int i = 0; i < 1_000; i++) {
        w.returned(now + i * DispatchWindow.INTERVAL_MS / 1_000, 40, 10, 1_000);
      }
      now += DispatchWindow.INTERVAL_MS;
    }
    w.returned(now, 40, 10, 1_000);
    assertThat(w.limit(100_000)).isEqualTo(2 * 200 + 4_000 + DispatchWindow.HEADROOM);
  }

  @Test
  void aSlowHandlerGetsRoomForItsRunsAndATrickleTheFloor() {
    results(50, 2_000, 40, 1_000); // 0.2 per ms × 1,040 ms: 208 running or on the way
    assertThat(w.limit(1_000))
        .isEqualTo((int) Math.ceil(2 * 0.2 * 1_040) + DispatchWindow.HEADROOM);
    DispatchWindow trickle = new DispatchWindow();
    for (int i = 0; i < 20; i++) {
      trickle.contended(now + i * 300L);
      trickle.returned(now + i * 300L, 30, 1);
    }
    assertThat(trickle.limit(1_000)).isEqualTo(DispatchWindow.FLOOR);
  }

  @Test
  void theLeastTimeOnTheWayOfTheLastTenSecondsSizesIt() {
    results(1_000, 1_000, 40, 0);
    int quick = w.limit(1_000);
    results(1_000, 5_000, 200, 0); // a queue formed: the window keeps the measure without one
    assertThat(w.limit(1_000)).isEqualTo(quick);
    results(1_000, 11_000, 200, 0);
    assertThat(w.limit(10_000)).isEqualTo((int) Math.ceil(2 * 4.0 * 200) + DispatchWindow.HEADROOM);
  }

  @Test
  void everyTenSecondsTheWindowShrinksUntilAnAttemptSentAfterTheQueueDrainedCameBack() {
    results(1_000, 9_000, 40, 10);
    int full = w.limit(1_000);
    int smallest = full;
    int probes = 0;
    for (int i = 0; i < 12; i++) {
      results(1_000, DispatchWindow.INTERVAL_MS, 40, 10);
      int l = w.limit(1_000);
      smallest = Math.min(smallest, l);
      probes += l < full ? 1 : 0;
    }
    assertThat(smallest)
        .as("what keeps the runs going: 4 per ms (and the closing result) × 10 ms, + headroom")
        .isBetween(4 * 10 + DispatchWindow.HEADROOM, 4 * 10 + DispatchWindow.HEADROOM + 1);
    assertThat(probes).as("one interval: the first attempt sent after it came back").isEqualTo(1);
    assertThat(w.limit(1_000)).isBetween(full, full + 1);
  }

  @Test
  void aWindowThatHoldsAStandingQueueFindsTheWayWithoutIt() {
    // An unsized window of 1,000 attempts out at 1 per ms: each waits about 1 s in the handler
    // topic, so the time on the way measures the window itself, and 2 × pipe keeps it at 1,000.
    DispatchWindow q = new DispatchWindow();
    long t = now;
    for (; t < now + 2_000; t++) {
      q.returned(t, 1_000, 1); // no key waits yet: measured, not in force
    }
    q.contended(t);
    int limit = q.limit(1_000);
    int probeLimit = Integer.MAX_VALUE;
    long drainedBy = Long.MAX_VALUE;
    // In force: the probe lets out only what keeps the runs going while the 1,000 out drain; an
    // attempt sent after that comes back in 15 ms (the way without a queue).
    long probeFrom = Long.MAX_VALUE;
    for (long end = t + 4_000; t < end; t++) {
      int l = q.limit(1_000);
      if (l < 1_000 && probeFrom == Long.MAX_VALUE) {
        probeFrom = t;
        probeLimit = l;
      }
      long onTheWay = probeFrom != Long.MAX_VALUE && t >= probeFrom + 1_015 ? 15 : 1_000;
      if (onTheWay == 15 && drainedBy == Long.MAX_VALUE) {
        drainedBy = t;
      }
      q.contended(t);
      q.returned(t, onTheWay, 1);
    }
    assertThat(limit).as("measured with the queue in it").isEqualTo(1_000);
    assertThat(probeLimit)
        .as("1 per ms × 1 ms run + headroom, the floor at least")
        .isEqualTo(Math.max(DispatchWindow.FLOOR, 1 + DispatchWindow.HEADROOM));
    assertThat(probeFrom - (now + 2_000))
        .as("the probe starts when it comes in force")
        .isLessThan(300);
    assertThat(q.limit(1_000))
        .as("sized from the way without a queue: 2 × 1 per ms × 16 ms + headroom")
        .isEqualTo(2 * 16 + DispatchWindow.HEADROOM);
  }

  @Test
  void aQuickHandlerWhoseLeastWayIsFarBelowItsUsualOneKeepsItsRate() {
    // Workers that take 1.2 attempts a ms; every attempt spends 2 or 24 ms on the way in turn
    // (13 on average). With W out the handler delivers min(1.2, W / 13) a ms: a window sized from
    // the least way (2 ms) alone would hold it to a fraction of that; the floor keeps it going.
    DispatchWindow g = new DispatchWindow();
    double owed = 0;
    long t = now;
    boolean quick = false;
    long lastFive = 0;
    for (; t < now + 20_000; t++) {
      g.contended(t);
      owed += Math.min(1.2, g.limit(1_000) / 13.0);
      for (; owed >= 1; owed--) {
        quick = !quick;
        g.returned(t, quick ? 2 : 24, 0);
        lastFive += t >= now + 15_000 ? 1 : 0;
      }
    }
    assertThat(lastFive / 5_000.0).as("results a ms in the last 5 s").isGreaterThan(1.15);
    assertThat(g.limit(1_000)).isLessThan(1_000);
  }

  @Test
  void anIdleHandlerIsMeasuredAfresh() {
    results(1_000, 2_000, 40, 10);
    assertThat(w.limit(1_000)).isLessThan(1_000);
    now += DispatchWindow.IDLE_MS + 1;
    w.returned(now, 40, 10);
    assertThat(w.limit(1_000))
        .as(
            "in force, not measured since: the floor, so that a resumed backlog is not let out whole")
        .isEqualTo(DispatchWindow.FLOOR);
    results(1_000, 2_000, 40, 10);
    assertThat(w.limit(1_000))
        .as("measured again")
        .isBetween(2 * 200 + DispatchWindow.HEADROOM - 2, 2 * 200 + DispatchWindow.HEADROOM + 2);
  }

  @Test
  void aSingleQueueKeepsMaxDispatchedOut() {
    DispatchWindow single = new DispatchWindow();
    for (int i = 0; i < 8 * 1_000; i++) {
      single.returned(now + i / 4, 40, 10); // measured like the others, but nobody to let ahead
    }
    single.returned(now + 2_000, 40, 10);
    assertThat(single.limit(1_000)).isEqualTo(1_000);
    single.contended(now + 2_000);
    assertThat(single.limit(1_000))
        .as("in force at once")
        .isEqualTo(2 * 200 + DispatchWindow.HEADROOM);
  }

  @Test
  void theWindowStaysInForceTenSecondsAfterTwoKeysLastWaited() {
    results(1_000, 2_000, 40, 10);
    int sized = w.limit(1_000);
    assertThat(sized).isLessThan(1_000);
    long lastContended = now - DispatchWindow.INTERVAL_MS;
    long end = lastContended + DispatchWindow.CONTENDED_MS;
    while (now <= end) { // results go on, no key waits for its turn any more
      for (int i = 0; i < 1_000; i++) {
        w.returned(now + i / 4, 40, 10);
      }
      now += DispatchWindow.INTERVAL_MS;
      if (now <= end) {
        assertThat(w.limit(1_000)).isLessThan(1_000);
      }
    }
    w.returned(now, 40, 10);
    assertThat(w.limit(1_000)).isEqualTo(1_000);
  }
}
