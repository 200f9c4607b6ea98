package org.lucenerevisited.pk;

/** What {@link PkReopenBench} runs; Python fills the public fields. */
public final class PkReopenSpec {
  /** Contender names (postings formats, default or BloomFilter), parallel to indexPaths. */
  public String[] contenders;
  /** The multi-segment index of each contender; it is copied, never modified. */
  public String[] indexPaths;
  /** The corpus the indexes were built from; updated ids are drawn from it. */
  public String docsTsv;
  /** Scratch directory for the copies; they are deleted afterwards. */
  public String workDir;
  public int updatesPerReopen = 100;
  public int reopenIntervalMs = 100;
  public int warmupReopens = 20;
  public int rounds = 5;
  public int reopensPerRound = 10;
  public long seed = 42;
}
