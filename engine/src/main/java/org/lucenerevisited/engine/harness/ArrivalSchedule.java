package org.lucenerevisited.engine.harness;

import java.util.SplittableRandom;

/**
 * The intended send times of a Poisson arrival process: gaps between arrivals are exponential with
 * mean {@code 1 / rate}, drawn from a seeded generator, so a seed fixes the whole schedule. Times
 * are offsets in nanoseconds from the start of the load, accumulated in double precision and
 * rounded only when returned, so that rounding does not bias the rate over millions of gaps.
 */
public final class ArrivalSchedule {

  private final double meanGapNanos;
  private final SplittableRandom random;
  private double offset;

  /** Arrivals at {@code rate} per second on average; the same seed gives the same schedule. */
  public ArrivalSchedule(double rate, long seed) {
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("rate must be a finite number > 0, got " + rate);
    }
    this.meanGapNanos = 1e9 / rate;
    this.random = new SplittableRandom(seed);
  }

  /** The offset from the start (ns) of the next arrival; offsets never decrease. */
  public long next() {
    // Inverse transform: 1 - u lies in (0, 1], so the logarithm is finite.
    offset -= meanGapNanos * Math.log(1 - random.nextDouble());
    return Math.round(offset);
  }
}
