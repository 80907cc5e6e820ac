package io.tasklane.scheduler.internal;

import java.util.random.RandomGenerator;

/** Jitter without randomness: {@code nextInt} gives 0 and {@code nextDouble} gives 0.5. */
final class FixedRandom implements RandomGenerator {
  @Override
  public long nextLong() {
    return 0;
  }

  @Override
  public int nextInt(int bound) {
    return 0;
  }

  @Override
  public double nextDouble() {
    return 0.5;
  }
}
