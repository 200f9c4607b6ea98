package org.lucenerevisited.engine.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * Runs the series of one JVM in time-based iterations, JMH-style: an iteration gives a series
 * the clock until at least {@code iterationNanos} have passed, and records how many operations it
 * did. Every iteration runs each series once, in an order shuffled by a seeded Random, so that
 * drift within the JVM hits all series alike and their ratios pair by iteration.
 *
 * <p>A series has converged once its last {@code stableWindow} ns/op samples had a coefficient of
 * variation at most {@code stableCv} and the JIT compilers were busy for at most
 * {@code jitQuietShare} of those samples' time: a window in which code was still being compiled
 * is not a steady state, however flat. Warm-up iterations repeat until
 * every series has converged (but at least {@code minWarmup}, at most {@code maxWarmup}
 * iterations), then {@code measureIterations} are measured. A series that never converged is
 * flagged {@code stable = 0} on its rows, so that analysis can refuse it.
 *
 * <p>The series of one run normally belong to one contender (its conditions, thread counts):
 * JIT profiles are per call site, so a contender timed after another one's code ran through the
 * same call sites is measured in a different, polluted JVM. Mixing contenders is kept only for
 * the experiment that measures that pollution.
 */
public final class InterleavedRunner {

  /** One measured series. */
  public interface Contender {
    String name();

    /**
     * Runs the workload, whole units at a time, until {@code clock} reaches {@code deadline}
     * (at least one unit), and returns the number of operations done.
     */
    long runUntil(long deadline, LongSupplier clock) throws Exception;
  }

  private final long iterationNanos;
  private final int minWarmup;
  private final int maxWarmup;
  private final int stableWindow;
  private final double stableCv;
  private final double jitQuietShare;
  private final int measureIterations;
  private final long seed;
  private final LongSupplier clock;
  private final LongSupplier jitMillis;

  public InterleavedRunner(long iterationNanos, int minWarmup, int maxWarmup, int stableWindow,
      double stableCv, double jitQuietShare, int measureIterations, long seed) {
    this(iterationNanos, minWarmup, maxWarmup, stableWindow, stableCv, jitQuietShare,
        measureIterations, seed, System::nanoTime, jitMillis());
  }

  /**
   * With an injectable clock and JIT-time counter (cumulative milliseconds the JIT compilers have
   * worked), so tests can drive stability deterministically.
   */
  InterleavedRunner(long iterationNanos, int minWarmup, int maxWarmup, int stableWindow,
      double stableCv, double jitQuietShare, int measureIterations, long seed, LongSupplier clock,
      LongSupplier jitMillis) {
    if (iterationNanos < 1 || stableWindow < 2 || minWarmup < 0 || maxWarmup < minWarmup
        || measureIterations < 1) {
      throw new IllegalArgumentException("need iterationNanos >= 1, stableWindow >= 2, "
          + "0 <= minWarmup <= maxWarmup, measureIterations >= 1");
    }
    this.iterationNanos = iterationNanos;
    this.minWarmup = minWarmup;
    this.maxWarmup = maxWarmup;
    this.stableWindow = stableWindow;
    this.stableCv = stableCv;
    this.jitQuietShare = jitQuietShare;
    this.measureIterations = measureIterations;
    this.seed = seed;
    this.clock = clock;
    this.jitMillis = jitMillis;
  }

  /** The JVM's cumulative JIT compilation time; a JVM that cannot tell fails, not passes. */
  static LongSupplier jitMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      throw new IllegalStateException("this JVM does not report JIT compilation time, which "
          + "warm-up needs to tell a steady state from code still being compiled");
    }
    return jit::getTotalCompilationTime;
  }

  /**
   * Runs warm-up then measurement, in a JVM whose young generation is resident (see
   * {@link YoungGeneration}). Columns: contender, phase ("warmup"|"measure"), iteration
   * (from 0 within its phase), ops, nanos, jit_ms (JIT compilation time while the sample ran),
   * stable (1 if that series' warm-up converged, 0 if it had not by the maximum).
   */
  public Table run(String label, List<? extends Contender> contenders, Progress progress)
      throws Exception {
    YoungGeneration.touchOnce();
    Random random = new Random(seed);
    List<Sample> samples = new ArrayList<>();
    List<List<Sample>> bySeries = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      bySeries.add(new ArrayList<>());
    }
    boolean[] converged = new boolean[contenders.size()];
    int iteration = 0;
    while (iteration < maxWarmup && !(all(converged) && iteration >= minWarmup)) {
      runIteration("warmup", iteration, contenders, random, samples, bySeries);
      iteration++;
      for (int i = 0; i < converged.length; i++) {
        converged[i] |= stable(bySeries.get(i));
      }
      progress.report(label + " warmup", iteration, maxWarmup);
    }
    for (int i = 0; i < measureIterations; i++) {
      runIteration("measure", i, contenders, random, samples, bySeries);
      progress.report(label + " measure", i + 1, measureIterations);
    }
    Table.Builder table = Table.builder().stringColumn("contender").stringColumn("phase")
        .longColumn("iteration").longColumn("ops").longColumn("nanos").longColumn("jit_ms")
        .longColumn("stable");
    for (Sample s : samples) {
      table.addRow(contenders.get(s.series).name(), s.phase, s.iteration, s.ops, s.nanos,
          s.jitMs, converged[s.series] ? 1 : 0);
    }
    return table.build();
  }

  private void runIteration(String phase, int iteration, List<? extends Contender> contenders,
      Random random, List<Sample> samples, List<List<Sample>> bySeries) throws Exception {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    for (int i : order) {
      Contender c = contenders.get(i);
      long jitBefore = jitMillis.getAsLong();
      long start = clock.getAsLong();
      long ops = c.runUntil(start + iterationNanos, clock);
      long nanos = clock.getAsLong() - start;
      Sample s = new Sample(i, phase, iteration, ops, nanos, jitMillis.getAsLong() - jitBefore);
      samples.add(s);
      bySeries.get(i).add(s);
    }
  }

  /** The last stableWindow samples agree within stableCv, and the JIT was (nearly) idle then. */
  private boolean stable(List<Sample> xs) {
    if (xs.size() < stableWindow) {
      return false;
    }
    List<Sample> window = xs.subList(xs.size() - stableWindow, xs.size());
    List<Double> nsPerOp = new ArrayList<>();
    long nanos = 0;
    long jitMs = 0;
    for (Sample s : window) {
      nsPerOp.add(s.nanos / (double) Math.max(s.ops, 1));
      nanos += s.nanos;
      jitMs += s.jitMs;
    }
    return cv(nsPerOp) <= stableCv && jitMs * 1e6 <= jitQuietShare * nanos;
  }

  private static boolean all(boolean[] flags) {
    for (boolean f : flags) {
      if (!f) {
        return false;
      }
    }
    return true;
  }

  /** Sample standard deviation over mean. */
  static double cv(List<Double> xs) {
    double mean = 0;
    for (double x : xs) {
      mean += x;
    }
    mean /= xs.size();
    double ss = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
    }
    return mean == 0 ? 0 : Math.sqrt(ss / (xs.size() - 1)) / mean;
  }

  private record Sample(int series, String phase, int iteration, long ops, long nanos,
      long jitMs) {}
}
