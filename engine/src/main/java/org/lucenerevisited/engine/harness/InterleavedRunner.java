package org.lucenerevisited.engine.harness;

import java.util.ArrayList;
import java.util.Arrays;
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
 * iterations), then {@code measureIterations} are measured. A series converged also when its
 * last {@code stableWindow} samples, the measured ones at the end, pass the same test: the JIT's
 * tail may outlast the warm-up by an iteration without the timed window being any less steady. A
 * series that never converged is flagged {@code stable = 0} on its rows, so that analysis can
 * refuse it.
 *
 * <p>A measure iteration in which the JIT compiled for more than {@code jitQuietShare} of any
 * series' sample still belonged to the warm-up: its rows become warm-up rows and another
 * iteration is measured in its place, at most {@code measureIterations} times in a run. Past that,
 * such an iteration is measured, and the series that compiled in it are flagged {@code stable = 0}:
 * a JIT that never falls quiet is a series that never converged.
 *
 * <p>In a lockstep group ({@link Turns}) each sample waits for this JVM's turn, so that the same
 * series of every JVM of the group is timed within one turn of the others.
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
  private final LongSupplier gcMillis;

  public InterleavedRunner(long iterationNanos, int minWarmup, int maxWarmup, int stableWindow,
      double stableCv, double jitQuietShare, int measureIterations, long seed) {
    this(iterationNanos, minWarmup, maxWarmup, stableWindow, stableCv, jitQuietShare,
        measureIterations, seed, System::nanoTime, JvmCounters.jitMillis(), JvmCounters.gcMillis());
  }

  /**
   * With an injectable clock and JIT- and GC-time counters (cumulative milliseconds, see
   * {@link JvmCounters}), so tests can drive stability deterministically.
   */
  InterleavedRunner(long iterationNanos, int minWarmup, int maxWarmup, int stableWindow,
      double stableCv, double jitQuietShare, int measureIterations, long seed, LongSupplier clock,
      LongSupplier jitMillis, LongSupplier gcMillis) {
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
    this.gcMillis = gcMillis;
  }

  /**
   * Runs warm-up then measurement, in a JVM whose young generation is resident (see
   * {@link YoungGeneration}). Columns: contender, phase ("warmup"|"measure"), iteration (from 0
   * within its phase, in the order run: a measure iteration turned warm-up is numbered after the
   * warm-up's own), ops, nanos, jit_ms and gc_ms (JIT compilation and GC time while the sample
   * ran), stable (1 if that series converged, in its warm-up or on its measured window, and the
   * JIT was quiet in its measured iterations, 0 if not).
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
    int warmups = 0;
    while (warmups < maxWarmup && !(all(converged) && warmups >= minWarmup)) {
      for (Sample s : runIteration(contenders, random)) {
        samples.add(s.as("warmup", warmups));
        bySeries.get(s.series).add(s);
      }
      warmups++;
      for (int i = 0; i < converged.length; i++) {
        converged[i] |= stable(bySeries.get(i));
      }
      progress.report(label + " warmup", warmups, maxWarmup);
    }
    int reruns = 0;
    boolean[] quiet = new boolean[contenders.size()];
    Arrays.fill(quiet, true);
    for (int measured = 0; measured < measureIterations; ) {
      List<Sample> iteration = runIteration(contenders, random);
      boolean compiled = iteration.stream().anyMatch(this::compiling);
      if (compiled && reruns < measureIterations) {
        reruns++;
        for (Sample s : iteration) {
          samples.add(s.as("warmup", warmups));
          bySeries.get(s.series).add(s);
          converged[s.series] |= stable(bySeries.get(s.series));
        }
        warmups++;
        continue;
      }
      for (Sample s : iteration) {
        samples.add(s.as("measure", measured));
        bySeries.get(s.series).add(s);
        quiet[s.series] &= !compiling(s); // past the re-runs: this series' JIT never fell quiet
      }
      measured++;
      progress.report(label + " measure", measured, measureIterations);
    }
    for (int i = 0; i < converged.length; i++) {
      // Steady by the measured iterations themselves counts too: the same test, on the window timed.
      converged[i] = (converged[i] || stable(bySeries.get(i))) && quiet[i];
    }
    Table.Builder table = Table.builder().stringColumn("contender").stringColumn("phase")
        .longColumn("iteration").longColumn("ops").longColumn("nanos").longColumn("jit_ms")
        .longColumn("gc_ms").longColumn("stable");
    for (Sample s : samples) {
      table.addRow(contenders.get(s.series).name(), s.phase, s.iteration, s.ops, s.nanos,
          s.jitMs, s.gcMs, converged[s.series] ? 1 : 0);
    }
    return table.build();
  }

  /** Runs each series once, in a shuffled order; the samples are not yet labelled. */
  private List<Sample> runIteration(List<? extends Contender> contenders, Random random)
      throws Exception {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    List<Sample> out = new ArrayList<>();
    Turns turns = Turns.shared();
    for (int i : order) {
      Contender c = contenders.get(i);
      if (turns != null) {
        turns.next();
      }
      long jitBefore = jitMillis.getAsLong();
      long gcBefore = gcMillis.getAsLong();
      long start = clock.getAsLong();
      long ops = c.runUntil(start + iterationNanos, clock);
      long nanos = clock.getAsLong() - start;
      out.add(new Sample(i, null, -1, ops, nanos, jitMillis.getAsLong() - jitBefore,
          gcMillis.getAsLong() - gcBefore));
    }
    return out;
  }

  /** The JIT compiled for more than jitQuietShare of the sample's time. */
  private boolean compiling(Sample s) {
    return s.jitMs * 1e6 > jitQuietShare * s.nanos;
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
      long jitMs, long gcMs) {
    Sample as(String phase, int iteration) {
      return new Sample(series, phase, iteration, ops, nanos, jitMs, gcMs);
    }
  }
}
