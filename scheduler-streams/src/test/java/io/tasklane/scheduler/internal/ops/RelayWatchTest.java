package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RelayWatchTest {
  private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return Instant.ofEpochMilli(now.get());
        }
      };

  @Test
  void keepsTheLastAdmissionAndTheLagsOfTheLastTwoWindows() {
    RelayWatch w = new RelayWatch(clock);
    assertThat(w.figures().lastAdmittedAt()).isEqualTo(-1);
    assertThat(w.figures().lags().getTotalCount()).isZero();
    w.admitted(100);
    w.admitted(300);
    now.addAndGet(RelayWatch.WINDOW_MS);
    w.admitted(50);
    RelayWatch.Figures f = w.figures();
    assertThat(f.lags().getTotalCount()).isEqualTo(3);
    assertThat(f.lastAdmittedAt()).isEqualTo(now.get());
    assertThat(f.lastLagMs()).isEqualTo(50);
    assertThat(f.lags().getMaxValue()).isBetween(299L, 301L);
    // one window later the first two lags are gone; two windows later all are
    now.addAndGet(RelayWatch.WINDOW_MS);
    assertThat(w.figures().lags().getTotalCount()).isEqualTo(1);
    now.addAndGet(RelayWatch.WINDOW_MS);
    assertThat(w.figures().lags().getTotalCount()).isZero();
    assertThat(w.figures().lastAdmittedAt()).isEqualTo(now.get() - 2 * RelayWatch.WINDOW_MS);
  }

  @Test
  void anotherInstancesFiguresTravelEncodedAndAddUp() {
    RelayWatch a = new RelayWatch(clock);
    RelayWatch b = new RelayWatch(clock);
    a.admitted(10);
    now.addAndGet(1_000);
    b.admitted(2_000);
    RelayWatch.Figures fb = b.figures();
    RelayWatch.Figures decoded =
        new RelayWatch.Figures(
            fb.lastAdmittedAt(),
            fb.lastLagMs(),
            fb.sinceMs(),
            RelayWatch.Figures.decodeLags(fb.encodedLags()));
    RelayWatch.Figures sum = a.figures().add(decoded);
    assertThat(sum.lags().getTotalCount()).isEqualTo(2);
    assertThat(sum.lastAdmittedAt()).isEqualTo(now.get());
    assertThat(sum.lastLagMs()).isEqualTo(2_000);
  }
}
