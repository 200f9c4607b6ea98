package org.lucenerevisited.engine.harness;

import java.util.function.LongSupplier;

/**
 * Ends the warm-up of a run under a held load, where there are no iterations to compare: the load's
 * own variation (flushes, merges, reopens) is what the run measures, so the steadiness looked for is
 * the JIT's. The JIT's share of a window is the compilers' time over the window's time. The warm-up
 * is over once at least {@code minNanos} have passed and, over the last {@code window} probes, that
 * share was at most {@code jitQuietShare} (the JIT is quiet) or had not fallen by more than
 * {@code settledDrop} from the {@code window} probes before (the JIT works at a steady rate: some
 * workloads keep a compiler busy for as long as they run). It ends anyway at {@code maxNanos},
 * unconverged ({@link #stable()} false), so that analysis can refuse what followed.
 *
 * <p>The caller probes at regular times from one thread; other threads may read {@link #stable()}.
 */
public final class WarmupMonitor {

  private final long start;
  private final long minNanos;
  private final long maxNanos;
  private final int window;
  private final double jitQuietShare;
  private final double settledDrop;
  private final LongSupplier jitMillis;
  /** The last 2 * window + 1 probes, as a ring: their times and cumulative JIT milliseconds. */
  private final long[] times;
  private final long[] jits;
  private int probes;
  private volatile boolean over;
  private volatile boolean stable;

  /** A monitor of a warm-up that began at {@code start} (System.nanoTime), on this JVM's JIT counter. */
  public WarmupMonitor(long start, long minNanos, long maxNanos, int window, double jitQuietShare,
      double settledDrop) {
    this(start, minNanos, maxNanos, window, jitQuietShare, settledDrop, JvmCounters.jitMillis());
  }

  WarmupMonitor(long start, long minNanos, long maxNanos, int window, double jitQuietShare,
      double settledDrop, LongSupplier jitMillis) {
    if (minNanos < 0 || maxNanos < minNanos || window < 1 || jitQuietShare < 0 || settledDrop < 0) {
      throw new IllegalArgumentException(
          "need 0 <= minNanos <= maxNanos, window >= 1, jitQuietShare >= 0, settledDrop >= 0");
    }
    this.start = start;
    this.minNanos = minNanos;
    this.maxNanos = maxNanos;
    this.window = window;
    this.jitQuietShare = jitQuietShare;
    this.settledDrop = settledDrop;
    this.jitMillis = jitMillis;
    this.times = new long[2 * window + 1];
    this.jits = new long[2 * window + 1];
  }

  /** Records a probe at {@code now}; true once the warm-up is over (converged or at its maximum). */
  public boolean probe(long now) {
    if (over) {
      return true;
    }
    times[probes % times.length] = now;
    jits[probes % times.length] = jitMillis.getAsLong();
    probes++;
    long elapsed = now - start;
    if (elapsed >= minNanos && probes >= times.length) {
      double recent = share(window, 0);
      if (recent <= jitQuietShare || recent >= share(2 * window, window) - settledDrop) {
        stable = true;
        over = true;
      }
    }
    if (elapsed >= maxNanos) {
      over = true;
    }
    return over;
  }

  /** The JIT's share of the time from {@code from} probes ago to {@code to} probes ago. */
  private double share(int from, int to) {
    int a = Math.floorMod(probes - 1 - from, times.length);
    int b = Math.floorMod(probes - 1 - to, times.length);
    long span = times[b] - times[a];
    return span <= 0 ? 0 : (jits[b] - jits[a]) * 1e6 / span;
  }

  /** Whether the warm-up ended with the JIT quiet or steady, not at its maximum. */
  public boolean stable() {
    return stable;
  }
}
