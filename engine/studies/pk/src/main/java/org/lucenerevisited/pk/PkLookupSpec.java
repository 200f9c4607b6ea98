package org.lucenerevisited.pk;

/**
 * What {@link PkLookupBench} runs; Python fills the public fields. The per-series arrays are
 * parallel: series i looks up the keys of {@code keysPaths[i]} in {@code indexPaths[i]} with
 * contender {@code contenders[i]} on {@code threads[i]} threads, and is reported as
 * {@code labels[i]}.
 */
public final class PkLookupSpec {
  /** Contender of each series; {@code default-aa} is the default contender on its own reader. */
  public String[] contenders;
  /** Index directory of each series (GlobalPkMap: the default index). */
  public String[] indexPaths;
  /** Keys file of each series. */
  public String[] keysPaths;
  public int[] threads;
  /** The condition each series measures, as the caller names it. */
  public String[] labels;
  public int batchSize = 4000;
  /** Length of one timed iteration; every thread of a series looks keys up until it passes. */
  public int iterationMillis = 100;
  public int minWarmupIterations = 3;
  public int maxWarmupIterations = 30;
  public int stableWindow = 3;
  public double stableCv = 0.05;
  /** Share of a warm-up window's time the JIT may have compiled for the window to count as steady. */
  public double jitQuietShare = 0.02;
  public int measureIterations = 10;
  public long seed = 42;
}
