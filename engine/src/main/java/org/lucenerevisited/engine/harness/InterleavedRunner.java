package org.lucenerevisited.engine.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * Runs contenders in rounds: every round runs each contender once, in an order shuffled by a
 * seeded Random, so slow drift of the host (thermal, JIT, page cache) hits all contenders alike
 * instead of whichever ran last. Warm-up rounds repeat until every contender's last
 * {@code stableWindow} ns/op samples have a coefficient of variation at most {@code stableCv}
 * (but at least {@code minWarmupRounds}, at most {@code maxWarmupRounds}); then
 * {@code measureRounds} rounds are measured. Every raw sample is kept.
 */
public final class InterleavedRunner {

  /** One measured workload. */
  public interface Contender {
    String name();

    /** Runs the workload once and returns the number of operations it did. */
    long runOnce() throws Exception;
  }

  /** Called after every round, warm-up and measured, with that round's phase and number. */
  @FunctionalInterface
  public interface RoundHook {
    void afterRound(String phase, int round) throws Exception;

    RoundHook NONE = (phase, round) -> {};
  }

  private final int minWarmupRounds;
  private final int maxWarmupRounds;
  private final int stableWindow;
  private final double stableCv;
  private final int measureRounds;
  private final long seed;
  private final LongSupplier clock;

  public InterleavedRunner(
      int minWarmupRounds,
      int maxWarmupRounds,
      int stableWindow,
      double stableCv,
      int measureRounds,
      long seed) {
    this(minWarmupRounds, maxWarmupRounds, stableWindow, stableCv, measureRounds, seed,
        System::nanoTime);
  }

  /** With an injectable clock, so tests can drive stability deterministically. */
  InterleavedRunner(
      int minWarmupRounds,
      int maxWarmupRounds,
      int stableWindow,
      double stableCv,
      int measureRounds,
      long seed,
      LongSupplier clock) {
    if (stableWindow < 2 || minWarmupRounds < 0 || maxWarmupRounds < minWarmupRounds
        || measureRounds < 1) {
      throw new IllegalArgumentException("need stableWindow >= 2, 0 <= minWarmupRounds <= "
          + "maxWarmupRounds, measureRounds >= 1");
    }
    this.minWarmupRounds = minWarmupRounds;
    this.maxWarmupRounds = maxWarmupRounds;
    this.stableWindow = stableWindow;
    this.stableCv = stableCv;
    this.measureRounds = measureRounds;
    this.seed = seed;
    this.clock = clock;
  }

  /**
   * Runs warm-up then measurement. Columns: contender, phase ("warmup"|"measure"), round (from 0
   * within its phase), ops, nanos, stable (1 if warm-up converged, 0 if it hit the maximum).
   */
  public Table run(String label, List<? extends Contender> contenders, Progress progress)
      throws Exception {
    return run(label, contenders, progress, RoundHook.NONE);
  }

  /**
   * As {@link #run(String, List, Progress)}, calling {@code afterRound} between rounds, outside
   * any timed region: a cross-check can time its own code there, in step with the contenders.
   */
  public Table run(String label, List<? extends Contender> contenders, Progress progress,
      RoundHook afterRound) throws Exception {
    Random random = new Random(seed);
    List<Sample> samples = new ArrayList<>();
    List<List<Double>> nsPerOp = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      nsPerOp.add(new ArrayList<>());
    }
    boolean stable = false;
    int round = 0;
    while (round < maxWarmupRounds && !(stable && round >= minWarmupRounds)) {
      runRound("warmup", round, contenders, random, samples, nsPerOp);
      afterRound.afterRound("warmup", round);
      round++;
      stable = allStable(nsPerOp);
      progress.report(label + " warmup", round, maxWarmupRounds);
    }
    boolean converged = stable;
    for (int r = 0; r < measureRounds; r++) {
      runRound("measure", r, contenders, random, samples, nsPerOp);
      afterRound.afterRound("measure", r);
      progress.report(label + " measure", r + 1, measureRounds);
    }
    Table.Builder table = Table.builder().stringColumn("contender").stringColumn("phase")
        .longColumn("round").longColumn("ops").longColumn("nanos").longColumn("stable");
    for (Sample s : samples) {
      table.addRow(s.contender, s.phase, s.round, s.ops, s.nanos, converged ? 1 : 0);
    }
    return table.build();
  }

  private void runRound(String phase, int round, List<? extends Contender> contenders,
      Random random, List<Sample> samples, List<List<Double>> nsPerOp) throws Exception {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    for (int i : order) {
      Contender c = contenders.get(i);
      long start = clock.getAsLong();
      long ops = c.runOnce();
      long nanos = clock.getAsLong() - start;
      samples.add(new Sample(c.name(), phase, round, ops, nanos));
      nsPerOp.get(i).add(nanos / (double) Math.max(ops, 1));
    }
  }

  private boolean allStable(List<List<Double>> nsPerOp) {
    for (List<Double> xs : nsPerOp) {
      if (xs.size() < stableWindow || cv(xs.subList(xs.size() - stableWindow, xs.size())) > stableCv) {
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

  private record Sample(String contender, String phase, int round, long ops, long nanos) {}
}
