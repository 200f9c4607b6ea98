package org.lucenerevisited.pk;

/** What {@link PkLookupBench} runs; Python fills the public fields. */
public final class PkLookupSpec {
  /** Contender names, parallel to {@link #indexPaths}. */
  public String[] contenders;
  /** Index directory of each contender (GlobalPkMap: the default index). */
  public String[] indexPaths;
  public String keysTsv;
  public int batchSize = 4000;
  public int[] threads = {1};
  public int minWarmupRounds = 3;
  public int maxWarmupRounds = 30;
  public int stableWindow = 3;
  public double stableCv = 0.05;
  public int measureRounds = 10;
  public long seed = 42;
  /** Adds {@code default} a second time, on its own reader, as {@code default-aa}. */
  public boolean aaCalibration;
}
